import Foundation
import Testing

extension ExampleApps {
    /// The WatchConnection example apps (Examples/ReliablePhone, Examples/ReliableWatch) as real processes
    /// on WatchConnectivity, over real Unix sockets: what each printed is what the user would have seen.
    /// Needs the executables built (`swift build`); skipped otherwise.
    @Suite("Reliable examples against each other", .serialized)
    struct ReliableExampleProcessTests {
        static let built = Binaries.available("ReliablePhone", "ReliableWatch")

        @Test(
            "requests by their strategies; with the phone app off a live request fails and a save waits; a suggestion shows",
            .enabled(if: built, "ReliablePhone/ReliableWatch are not built next to the tests: run `swift build` first")
        )
        func requestsStatusHealthAndQueue() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let phone = try startExample("ReliablePhone", role: "phone", in: directory.path)
            // Stopped below; only a test that ends before that stops it here (`stop()` waits for one exit).
            defer { if phone.process.isRunning { phone.stop() } }
            let watch = try startExample("ReliableWatch", role: "watch", in: directory.path)
            defer { watch.stop() }
            await watch.event("status") { $0["reachable"] as? Bool == true && $0["text"] as? String == "Connected" }

            // messageOnly, immediate: answered live.
            watch.type("plan monday")
            await watch.event("plan") { $0["runs"] as? [String] == ["easy 5 km"] }
            await phone.event("handled") { $0["type"] as? String == "FetchPlan" && $0["day"] as? String == "monday" }
            // The default strategy, answered live.
            watch.type("note felt good")
            await watch.event("noted") { $0["notes"] as? Int == 1 }
            // Fire-and-forget over userInfo.
            watch.type("view summary")
            await phone.event("handled") { $0["name"] as? String == "screen_view:summary" }
            // Phone → watch, messageWithContextFallback.
            phone.type("goal 30")
            await watch.event("goal") { $0["km"] as? Double == 30 }
            await phone.event("goal-acknowledged") { $0["km"] as? Double == 30 }
            watch.type("health")
            await watch.event("health") { $0["health"] as? String == "healthy" && $0["isHealthy"] as? Bool == true }

            // The phone app goes off. Whether the watch's session notices at once (then the layer fails fast
            // and queues without trying) or only when a message fails (phantom reachability: attempts fail,
            // health degrades, the request is queued after its retries), the user sees the same outcomes.
            phone.stop()
            watch.type("plan tuesday")
            // 7007 once the watch knows the phone is gone; 7014 when the message went out on the link
            // the phone was just closing (a fresh-clone run saw that): a definite failure either way.
            await watch.event("failed") { $0["request"] as? String == "FetchPlan" && [7007, 7014].contains($0["code"] as? Int ?? 0) }
            watch.type("save 5.2")
            let saving = await watch.event("saving")
            let workout = try #require(saving?.payload["workout"] as? String)
            await watch.event("diagnostic") { $0["event"] as? String == "requestQueued" && $0["type"] as? String == "SaveWorkout" }

            // The phone app is back; the user taps "Try again" (recover): the save runs once, and its sender
            // gets the answer.
            let phoneAgain = try startExample("ReliablePhone", role: "phone", in: directory.path)
            defer { phoneAgain.stop() }
            await phoneAgain.event("status") { $0["reachable"] as? Bool == true }
            // A suggestion is shown (a failed message's, or reachability flapping's), with the
            // presentation its severity asks for.
            let presentations = ["minor": "hint", "moderate": "warning", "major": "alert", "critical": "alert"]
            await watch.event("suggestion") { line in
                (line["title"] as? String)?.isEmpty == false
                    && presentations[line["severity"] as? String ?? ""] == line["presentation"] as? String
            }
            watch.type("recover")
            await watch.event("saved") { $0["workout"] as? String == workout && $0["workouts"] as? Int == 1 && $0["totalKm"] as? Double == 5.2 }
            await watch.event("recovery") { $0["health"] as? String == "healthy" && $0["reachable"] as? Bool == true }
            await phoneAgain.event("handled") { $0["workout"] as? String == workout }
            #expect(phoneAgain.stdout.all.filter { $0.hasPrefix("handled ") && $0.contains(workout) }.count == 1)
            #expect(watch.stdout.all.filter { $0.hasPrefix("saved ") }.count == 1)
        }

        @Test(
            "a save queued while the phone app is off survives kill -9 of the watch app and runs once",
            .enabled(if: built, "ReliablePhone/ReliableWatch are not built next to the tests: run `swift build` first")
        )
        func queuedSaveSurvivesWatchKill() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let watch = try startExample("ReliableWatch", role: "watch", in: directory.path)
            defer { if watch.process.isRunning { watch.stop() } }
            await watch.event("status") { $0["activated"] as? Bool == true && $0["reachable"] as? Bool == false }
            watch.type("save 7")
            let saving = await watch.event("saving")
            let workout = try #require(saving?.payload["workout"] as? String)
            await watch.event("diagnostic") { $0["event"] as? String == "requestQueued" }
            kill(watch.process.processIdentifier, SIGKILL)
            watch.stop()

            // The restarted watch app reads its queue; nobody waits for the answer now, but the save still runs.
            let watchAgain = try startExample("ReliableWatch", role: "watch", in: directory.path)
            defer { watchAgain.stop() }
            await watchAgain.event("status") { $0["activated"] as? Bool == true }
            let phone = try startExample("ReliablePhone", role: "phone", in: directory.path)
            defer { phone.stop() }
            await phone.event("handled") { $0["workout"] as? String == workout && $0["km"] as? Double == 7 }
            await watchAgain.event("diagnostic") { $0["event"] as? String == "requestSent" && $0["type"] as? String == "SaveWorkout" }
            #expect(phone.stdout.all.filter { $0.hasPrefix("handled ") && $0.contains(workout) }.count == 1)
        }
    }
}
