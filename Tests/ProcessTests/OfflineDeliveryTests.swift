import Foundation
import Testing
import WatchPairWire

/// userInfo across app lifecycles: queued while the receiver is stopped, delivered in order when it
/// starts; the sender's didFinish reaches it after its own restart.
@Suite("Delivery across restarts")
struct OfflineDeliveryTests {
    @Test("userInfo sent while the watch is stopped arrives in order when it starts; didFinish after the phone's restart")
    func queuedWhileStopped() async throws {
        try await PairSandbox.with { pair in
            // The watch ran once (so it is paired and installed), then was stopped.
            try await pair.startReady(.phone)
            let firstWatch = try await pair.startReady(.watch)
            #expect(await firstWatch.stop() == 0, "\(pair.tail(.watch))")

            var sent: [String] = []
            for n in 1...8 {
                sent.append(try await pair.transfer(#"{"n":\#(n)}"#))
            }
            let ids = sent
            let outstanding = try await pair.ok(["--json", "transfers"])
            #expect(outstanding.json.compactMap { $0["transferId"]?.stringValue } == ids, "\(outstanding)")

            // The phone stops too (gracefully), the watch starts while the phone is down: nothing can
            // arrive yet. Then the phone restarts and delivers.
            #expect(await pair.daemon(.phone)?.stop() == 0, "\(pair.tail(.phone))")
            try await pair.startReady(.watch)
            #expect(try await pair.receivePending(.watch, channels: ["userInfo"]).isEmpty, "nothing can arrive while the phone is down")
            let app = try pair.startWcctl(["receive", "--follow", "--channel", "userInfo"], side: .watch)
            try await pair.startReady(.phone)

            #expect(await app.stdout.wait(timeout: .seconds(30)) { $0.count >= ids.count }, "watch printed \(app.stdout.lines)\n\(pair.diagnostics())")
            let items = app.stdout.lines.compactMap(JSONValue.from)
            #expect(items.compactMap { $0["transferId"]?.stringValue } == ids, "every transfer once, in order")
            #expect(items.compactMap { $0["userInfo"]?["n"]?.integerValue } == Array(1...8))

            // The restarted phone learns that each transfer finished: a receive on it shows didFinish items.
            let phoneApp = try pair.startWcctl(["receive", "--follow", "--channel", "didFinish"], side: .phone)
            #expect(await phoneApp.stdout.wait(timeout: .seconds(30)) { $0.count >= ids.count }, "phone printed \(phoneApp.stdout.lines)\n\(pair.diagnostics())")
            let finished = phoneApp.stdout.lines.compactMap(JSONValue.from)
            #expect(finished.compactMap { $0["channel"]?.stringValue } == Array(repeating: "didFinish", count: ids.count))
            #expect(finished.compactMap { $0["transferId"]?.stringValue } == ids, "\(finished)")
            #expect(finished.compactMap { $0["userInfo"]?["n"]?.integerValue } == Array(1...8))
            #expect(try await pair.ok(["transfers"]).stdout == ["no outstanding transfers"])
        }
    }

    @Test("a didFinish the phone was not running to see is shown on its next launch")
    func didFinishAfterSenderRestart() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let id = try await pair.transfer(#"{"workout":5.2}"#)
            try await pair.ok(["wait", "drained", "--timeout", "20"])
            // Nobody took the notice; the phone is killed and comes back.
            await pair.killDaemon(.phone)
            try await pair.startReady(.phone)
            let finished = try await pair.receivePending(.phone, channels: ["didFinish"])
            #expect(finished.compactMap { $0["transferId"]?.stringValue } == [id], "\(finished)")
            let received = try await pair.receivePending(.watch, channels: ["userInfo"])
            #expect(received.compactMap { $0["transferId"]?.stringValue } == [id], "\(received)")
        }
    }
}
