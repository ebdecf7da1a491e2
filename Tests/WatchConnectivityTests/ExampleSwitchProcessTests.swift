import Foundation
import Testing

extension ExampleApps {
    /// docs/Watches.md with the hand-written example as a real process: a phone app with two watches.
    @Suite("An example app through a watch switch", .serialized)
    struct ExampleSwitchProcessTests {
        static let built = Binaries.available("watchd", "PhoneSyncByHand")

        @Test(
            "PhoneSyncByHand re-activates in sessionDidDeactivate, as Apple's sample does, and publishes its list to the new watch",
            .enabled(if: built, "watchd/PhoneSyncByHand are not built next to the tests: run `swift build` first")
        )
        func byHandFollowsASwitch() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            // Watch b: the watch of pair b, in directory/b (watch a never runs).
            let b = directory.path + "/b"
            let watchd = try ChildProcess(
                Binaries.path("watchd")!,
                environment: [
                    "WATCHPAIR_PATHS_LINK": "\(b)/watchd.sock", "WATCHPAIR_PATHS_PEER_LINK": "\(b)/phoned.sock",
                    "WATCHPAIR_PATHS_CONTROL": "\(b)/watchd.ctl", "WATCHPAIR_PATHS_PEER_CONTROL": "\(directory.path)/phoned.ctl",
                    "WATCHPAIR_PATHS_STATE": "\(b)/watchd", "WATCHPAIR_PAIR_ID": "b", "WATCHPAIR_DURABILITY": "process",
                    "WATCHPAIR_LAUNCH": "foreground", "WATCHPAIR_LOG_DESTINATION": "stderr",
                ])
            defer { watchd.stop() }
            await watchd.stderr.waitFor("watchd activated") { $0.contains("sessionActivated") }
            let watch = try await ControlClient(path: b + "/watchd.ctl")
            try await watch.request(["op": "receive", "follow": true])

            var environment = exampleEnvironment(role: "phone", in: directory.path)
            environment["WATCHPAIR_WATCHES"] = "a,b"
            let phone = try ChildProcess(Binaries.path("PhoneSyncByHand")!, environment: environment)
            defer { phone.stop() }
            await phone.event("activated") { $0["state"] as? String == "activated" }

            // The user switches to watch b: inactive, deactivated, and the app activates again by itself.
            let control = try await ControlClient(path: directory.path + "/phoned.ctl")
            try await control.request(["op": "switch", "watch": "b"])
            await control.close()
            let inactive = try #require(await phone.event("inactive"))
            let deactivated = try #require(await phone.event("deactivated", after: inactive.index + 1))
            await phone.event("activated", after: deactivated.index + 1) { $0["state"] as? String == "activated" }
            // Bound to b now: the list it publishes at activation reaches watch b.
            await watch.event("applicationContext") { ($0["context"] as? [String: Any])?["items"] as? [String] == ["milk", "eggs"] }
            await watch.close()
        }
    }
}
