import Testing
import WatchPairWire

/// App-level faults made with `wcctl` alone: a watch app that answers too late (7012 at the sender)
/// or answers with an error (7011).
///
/// `slowApp` checks an order, not a time: the sender's 7012 comes back before the app's late answer
/// reaches phoned, and that answer does come afterwards. phoned reports an answer to a call that is over
/// as `messageAnswerDropped` (docs/Systemd.md, "journald"), so both ends of the order are what the daemon
/// recorded; how long wcctl takes to start on a loaded machine moves neither. A sender that waits for the
/// app's answer fails it: if phoned takes the answer as the call's outcome (its reply, or a 7012 only
/// then), no drop follows a 7012; if wcctl has its 7012 only after the answer, the drop is already in
/// phoned's event lines when wcctl returns.
@Suite("wcctl app-level faults")
struct AppFaultTests {
    @Test("receive --delay longer than the sender's --timeout: the sender has 7012 before the app answers")
    func slowApp() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            _ = try await pair.startHandler(["receive", "--follow", "--reply", #"{"late":true}"#, "--delay", "15"], side: .watch)
            expectWCError(try await pair.wcctl(["send", "--timeout", "1", #"{"slow":true}"#]), 7012)
            // When wcctl returns, the app's answer has not reached phoned: no drop in its event lines (its
            // stderr, read at once, no process to start). The app answers 15 s after it got the message, 14 s
            // after phoned's 7012; only wcctl's exit, however slow on a loaded machine, lies between that 7012
            // and this read.
            #expect(pair.occurrences(of: "messageAnswerDropped", in: .phone) == 0, "wcctl had its 7012 after the app answered:\n\(pair.tail(.phone))")
            // Then the answer comes, and phoned drops it: after the call's 7012, for the same message.
            try await pair.pollUntil("phoned to drop the app's late answer") {
                pair.occurrences(of: "messageAnswerDropped", in: .phone) > 0
            }
            let calls = try await pair.events(.phone, named: ["messageSent", "messageFailed", "messageAnswerDropped"])
            #expect(calls.map { $0["event"]?.stringValue } == ["messageFailed", "messageAnswerDropped"], "\(calls)")
            #expect(calls.first?["errorCode"] == .integer(7012) && calls.first?["seq"] != nil, "\(calls)")
            #expect(calls.last?["seq"] == calls.first?["seq"], "the dropped answer is the failed call's: \(calls)")
            // Within the timeout the delayed reply arrives.
            let patient = try await pair.ok(["send", "--timeout", "60", #"{"slow":true}"#])
            #expect(patient.stdout == [#"{"late":true}"#], "\(patient)")
        }
    }

    @Test("receive --error 7011: the sender's message fails with 7011; no-reply messages are still taken")
    func failingApp() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let app = try await pair.startHandler(["receive", "--follow", "--error", "7011"], side: .watch)
            expectWCError(try await pair.wcctl(["send", #"{"n":1}"#]), 7011)
            try await pair.ok(["send", "--no-reply", #"{"n":2}"#])
            #expect(await app.stdout.wait(timeout: .seconds(20)) { $0.count >= 2 }, "receive printed \(app.stdout.lines)")
        }
    }

    @Test("receive --error with an unknown code, or with --reply, is a usage error", arguments: [
        ["receive", "--follow", "--error", "42"],
        ["receive", "--follow", "--error", "7011", "--reply", "{}"],
        ["receive", "--delay", "1"],
        ["receive", "--follow", "--delay", "-1"],
    ])
    func usage(arguments: [String]) async throws {
        try await PairSandbox.with { pair in
            let run = try await pair.wcctl(arguments, side: .watch)
            #expect(run.status == 2, "\(run)")
        }
    }
}
