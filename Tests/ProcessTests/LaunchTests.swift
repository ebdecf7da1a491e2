import Foundation
import Testing
import WatchPairWire

/// Background launch through `systemd-socket-activate` (adopted listener, `launch: auto`) and idle exit,
/// against a foreground daemon with the same short idle timeout that stays up.
@Suite("Launch modes")
struct LaunchTests {
    @Test("a socket-activated watch is launched in the background by a transfer, delivers, and idle-exits 0; the foreground phone stays up")
    func backgroundLaunchAndIdleExit() async throws {
        try await PairSandbox.with(config: ["timeouts": .object(["idleExit": .integer(1)])]) { pair in
            let phone = try await pair.startReady(.phone)
            var sent: [String] = []
            for round in 1...2 {
                let watch = try await pair.startDaemon(.watch, .socketActivated)
                // A message from the phone never launches the watch app.
                expectWCError(try await pair.wcctl(["send", "--no-reply", #"{"wake":\#(round)}"#], timeout: .seconds(15)), 7007)
                #expect(pair.occurrences(of: "Communication attempt", in: .watch) == round - 1, "a message must not connect to the watch's socket\n\(pair.tail(.watch))")

                // A transfer does: the watch runs in the background, receives, then exits by itself.
                sent.append(try await pair.transfer(#"{"round":\#(round)}"#))
                let status = await watch.waitForExit(timeout: .seconds(30))
                #expect(status == 0, "round \(round): the background watch must exit 0 by itself, got \(status.map(String.init) ?? "still running")\n\(pair.tail(.watch))")
                #expect(pair.occurrences(of: "backgroundLaunch", in: .watch) == round, "one background launch per round\n\(pair.tail(.watch))")
                #expect(pair.occurrences(of: "idleExit", in: .watch) == round, "one idleExit event per round\n\(pair.tail(.watch))")
                #expect(pair.occurrences(of: "adopted the link listener", in: .watch) == round, "\(pair.tail(.watch))")
                // Delivered before the exit: nothing is outstanding at the phone.
                try await pair.pollUntil("round \(round) to be finished at the phone", process: phone) {
                    try await pair.status(.phone)["outstandingTransfers"] == .integer(0)
                }
                #expect(phone.isRunning)
            }

            let ids = sent
            // The phone, started in the foreground with the same 1 s idle timeout, was idle through both
            // idle periods of the watch and is still running, without an idleExit.
            #expect(phone.isRunning, "the foreground phone exited with \(phone.exitStatus ?? -1)\n\(pair.tail(.phone))")
            let status = try await pair.status(.phone)
            #expect(status["launch"] == .string("foreground"), "\(status)")
            let events = try await pair.ok(["--json", "events"])
            let names = events.json.compactMap { $0["event"]?.stringValue }
            #expect(names.contains("foregroundLaunch") && !names.contains("idleExit"), "\(names)")

            // The watch app, started in the foreground, finds both rounds waiting, in order.
            unlink(pair.linkPath(.watch))
            try await pair.startReady(.watch)
            let received = try await pair.receivePending(.watch, channels: ["userInfo"])
            #expect(received.compactMap { $0["transferId"]?.stringValue } == ids, "\(received)")
            #expect(try await pair.status(.watch)["launch"] == .string("foreground"))
        }
    }
}
