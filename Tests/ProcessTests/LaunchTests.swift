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
                #expect(!pair.tail(.watch).contains("Communication attempt"), "a message must not connect to the watch's socket\n\(pair.tail(.watch))")

                // A transfer does: the watch runs in the background, receives, then exits by itself.
                sent.append(try await pair.transfer(#"{"round":\#(round)}"#))
                let status = await watch.waitForExit(timeout: .seconds(30))
                #expect(status == 0, "round \(round): the background watch must exit 0 by itself, got \(status.map(String.init) ?? "still running")\n\(pair.tail(.watch))")
                let log = pair.tail(.watch, bytes: 20_000)
                #expect(log.components(separatedBy: "backgroundLaunch").count - 1 == round, "one background launch per round\n\(log)")
                #expect(log.components(separatedBy: "idleExit").count - 1 == round, "one idleExit event per round\n\(log)")
                #expect(log.contains("adopted the link listener"), "\(log)")
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
            let events = try await pair.ok(["events"])
            let names = events.json.compactMap { $0["event"]?.string }
            #expect(names.contains("foregroundLaunch") && !names.contains("idleExit"), "\(names)")

            // The watch app, started in the foreground, finds both rounds waiting, in order.
            unlink(pair.linkPath(.watch))
            try await pair.startReady(.watch)
            let received = try await pair.receivePending(.watch, channels: ["userInfo"])
            #expect(received.compactMap { $0["transferId"]?.string } == ids, "\(received)")
            #expect(try await pair.status(.watch)["launch"] == .string("foreground"))
        }
    }

    @Test("a background-launched daemon stays up while a control client is attached, then idle-exits")
    func controlClientKeepsBackgroundDaemon() async throws {
        try await PairSandbox.with(config: ["timeouts": .object(["idleExit": .integer(1)])]) { pair in
            try await pair.startReady(.phone)
            let watch = try await pair.startDaemon(.watch, .socketActivated)
            _ = try await pair.transfer(#"{"x":1}"#)
            // Attach an app before the idle timeout can run out: `receive --follow` holds the daemon.
            try await pair.pollUntil("the background watch to serve its control socket", process: watch) {
                FileManager.default.fileExists(atPath: pair.controlPath(.watch))
            }
            let app = try pair.startWcctl(["receive", "--follow", "--channel", "userInfo"], side: .watch)
            #expect(await app.stdout.wait(timeout: .seconds(20)) { !$0.isEmpty }, "\(pair.tail(.watch))")
            #expect(try await pair.status(.watch)["launch"] == .string("background"))

            // Two more transfers while it is held: both arrive (the daemon did not exit under the app).
            _ = try await pair.transfer(#"{"x":2}"#)
            _ = try await pair.transfer(#"{"x":3}"#)
            #expect(await app.stdout.wait(timeout: .seconds(20)) { $0.count >= 3 }, "\(app.stdout.lines)\n\(pair.tail(.watch))")
            #expect(watch.isRunning, "exited while a control client was attached\n\(pair.tail(.watch))")

            // Once the app goes away, the idle exit follows.
            app.signal(SIGINT)
            #expect(await app.waitForExit(timeout: .seconds(20)) == 0)
            #expect(await watch.waitForExit(timeout: .seconds(30)) == 0, "\(pair.tail(.watch))")
            #expect(pair.tail(.watch).contains("idleExit"))
        }
    }
}
