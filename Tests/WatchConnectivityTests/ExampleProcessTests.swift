import Foundation
import Testing

extension ExampleApps {
    /// The hand-written example apps (Examples/ByHand/PhoneSync and WatchSync, products PhoneSyncByHand and
    /// WatchSyncByHand) as real processes, against the reference
    /// daemons and against each other. Needs the executables built (`swift build`); skipped otherwise.
    @Suite("Examples against the daemons", .serialized)
    struct ExampleProcessTests {
        static let daemonsBuilt = Binaries.available("phoned", "watchd", "PhoneSyncByHand", "WatchSyncByHand")
        static let examplesBuilt = Binaries.available("PhoneSyncByHand", "WatchSyncByHand")

        @Test(
            "PhoneSyncByHand exchanges all three channels, both ways, with the reference watchd",
            .enabled(if: daemonsBuilt, "phoned/watchd/PhoneSyncByHand/WatchSyncByHand are not built next to the tests: run `swift build` first")
        )
        func phoneAppWithWatchd() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let watchd = try await startDaemon("watchd", in: directory.path)
            defer { watchd.stop() }
            // The watch "app": a control client that receives everything and answers messages.
            let watch = try await ControlClient(path: directory.path + "/watchd.ctl")
            try await watch.request(["op": "receive", "follow": true, "handle": ["dictionaryWithReply"], "autoReply": ["pong": true]])
            let phone = try startExample("PhoneSyncByHand", role: "phone", in: directory.path)
            defer { phone.stop() }
            await phone.event("activated") { $0["state"] as? String == "activated" }

            // applicationContext, phone → watch: published at activation.
            await watch.event("applicationContext") { ($0["context"] as? [String: Any])?["items"] as? [String] == ["milk", "eggs"] }
            // message with reply, watch → phone: the handshake.
            let reply = try await watch.request(["op": "send", "message": ["request": "snapshot"]])
            #expect((reply?["reply"] as? [String: Any])?["items"] as? [String] == ["milk", "eggs"])
            await phone.event("message") { $0["request"] as? String == "snapshot" }
            // userInfo, watch → phone; the phone republishes its context; the watch hears didFinish.
            try await watch.request(["op": "transfer", "userInfo": ["completed": "milk"]])
            await phone.event("userInfo") { $0["completed"] as? String == "milk" }
            await watch.event("didFinish") { ($0["userInfo"] as? [String: Any])?["completed"] as? String == "milk" }
            await watch.event("applicationContext") { ($0["context"] as? [String: Any])?["completed"] as? [String] == ["milk"] }
            // userInfo, phone → watch, with didFinish on the phone.
            phone.type("notify hello")
            await watch.event("userInfo") { ($0["userInfo"] as? [String: Any])?["notice"] as? String == "hello" }
            await phone.event("finished") { $0["notice"] as? String == "hello" }
            // message with reply, phone → watch.
            phone.type("ping")
            await watch.event("message") { $0["variant"] as? String == "dictionaryWithReply" }
            await phone.event("reply") { $0["pong"] as? Bool == true }
            // applicationContext, watch → phone.
            try await watch.request(["op": "contextSet", "context": ["seenRevision": 2]])
            let status = try await watch.request(["op": "status"])
            #expect(status?["reachable"] as? Bool == true)
            await watch.close()
        }

        @Test(
            "WatchSyncByHand exchanges all three channels, both ways, with the reference phoned",
            .enabled(if: daemonsBuilt, "phoned/watchd/PhoneSyncByHand/WatchSyncByHand are not built next to the tests: run `swift build` first")
        )
        func watchAppWithPhoned() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let phoned = try await startDaemon("phoned", in: directory.path)
            defer { phoned.stop() }
            let phone = try await ControlClient(path: directory.path + "/phoned.ctl")
            let snapshot: [String: Any] = ["items": ["tea"], "completed": [String](), "revision": 5]
            try await phone.request(["op": "receive", "follow": true, "handle": ["dictionaryWithReply"], "autoReply": snapshot])
            let watch = try startExample("WatchSyncByHand", role: "watch", in: directory.path)
            defer { watch.stop() }
            await watch.event("activated")

            // message with reply, watch → phone: the launch-time handshake.
            await phone.event("message") { ($0["message"] as? [String: Any])?["request"] as? String == "snapshot" }
            await watch.event("snapshot") { $0["items"] as? [String] == ["tea"] }
            // applicationContext, watch → phone: the revision the watch has seen.
            await phone.event("applicationContext") { ($0["context"] as? [String: Any])?["seenRevision"] as? Int == 5 }
            // applicationContext, phone → watch.
            try await phone.request(["op": "contextSet", "context": ["items": ["tea", "jam"], "completed": [String](), "revision": 6]])
            await watch.event("context") { $0["items"] as? [String] == ["tea", "jam"] }
            await phone.event("applicationContext") { ($0["context"] as? [String: Any])?["seenRevision"] as? Int == 6 }
            // userInfo, phone → watch.
            try await phone.request(["op": "transfer", "userInfo": ["notice": "hi"]])
            await watch.event("userInfo") { $0["notice"] as? String == "hi" }
            await phone.event("didFinish") { ($0["userInfo"] as? [String: Any])?["notice"] as? String == "hi" }
            // message with reply, phone → watch.
            let reply = try await phone.request(["op": "send", "message": ["ping": 1]])
            #expect((reply?["reply"] as? [String: Any])?["pong"] as? Bool == true)
            // userInfo, watch → phone.
            watch.type("done tea")
            await phone.event("userInfo") { ($0["userInfo"] as? [String: Any])?["completed"] as? String == "tea" }
            await watch.event("finished") { $0["completed"] as? String == "tea" }
            await phone.close()
        }

        @Test(
            "a message from the watch launches PhoneSyncByHand in the background (socket activation) and is answered",
            .enabled(if: daemonsBuilt, "phoned/watchd/PhoneSyncByHand/WatchSyncByHand are not built next to the tests: run `swift build` first"),
            .enabled(if: FileManager.default.isExecutableFile(atPath: socketActivate), "systemd-socket-activate is not installed")
        )
        func backgroundLaunch() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let watchd = try await startDaemon("watchd", in: directory.path)
            defer { watchd.stop() }
            let phone = try await installExample("PhoneSyncByHand", role: "phone", in: directory.path)
            defer { phone.stop() }
            let watch = try await ControlClient(path: directory.path + "/watchd.ctl")
            // Queued while the phone app is not running; delivered when the message below launches it.
            try await watch.request(["op": "transfer", "userInfo": ["completed": "eggs"]])
            let reply = try await watch.request(["op": "send", "message": ["request": "snapshot"]])
            #expect((reply?["reply"] as? [String: Any])?["revision"] as? Int != nil)
            let activated = await phone.event("activated")
            let message = await phone.event("message") { $0["request"] as? String == "snapshot" }
            #expect((activated?.index ?? .max) < (message?.index ?? .min), "the message was delivered before activation")
            await phone.event("userInfo") { $0["completed"] as? String == "eggs" }
            let status = try controlRequest(directory.path + "/phoned.ctl", #"{"id":1,"op":"status"}"#)
            #expect(status.contains(#""launch":"background""#), "\(status)")
            await watch.close()
        }

        @Test(
            "PhoneSyncByHand and WatchSyncByHand keep a list in sync with each other",
            .enabled(if: examplesBuilt, "PhoneSyncByHand/WatchSyncByHand are not built next to the tests: run `swift build` first")
        )
        func examplesWithEachOther() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let phone = try startExample("PhoneSyncByHand", role: "phone", in: directory.path)
            defer { phone.stop() }
            await phone.event("activated")
            let watch = try startExample("WatchSyncByHand", role: "watch", in: directory.path)
            defer { watch.stop() }
            await watch.event("activated")
            await watch.event("snapshot") { $0["items"] as? [String] == ["milk", "eggs"] }
            watch.type("add bread")
            await watch.event("reply") { $0["ok"] as? Bool == true }
            await watch.event("list") { $0["items"] as? [String] == ["milk", "eggs", "bread"] }
            watch.type("done milk")
            await phone.event("userInfo") { $0["completed"] as? String == "milk" }
            await watch.event("finished") { $0["completed"] as? String == "milk" }
            await watch.event("list") { $0["completed"] as? [String] == ["milk"] }
            phone.type("notify hello")
            await watch.event("userInfo") { $0["notice"] as? String == "hello" }
            phone.type("ping")
            await phone.event("reply") { $0["pong"] as? Bool == true }
        }
    }
}
