import Testing
import WatchPairWire

/// App-level faults made with `wcctl` alone: a watch app that answers too late (7012 at the sender)
/// or answers with an error (7011).
@Suite("wcctl app-level faults")
struct AppFaultTests {
    @Test("receive --delay longer than the sender's --timeout: the sender gets 7012")
    func slowApp() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            // The app answers 6 s late, the sender gives up after 1 s: 5 s apart, so a loaded machine's slow
            // start of wcctl (3.4 s seen beside benchmarks) still tells a sender that waited for the app.
            _ = try await pair.startHandler(["receive", "--follow", "--reply", #"{"late":true}"#, "--delay", "6"], side: .watch)
            let started = ContinuousClock.now
            expectWCError(try await pair.wcctl(["send", "--timeout", "1", #"{"slow":true}"#]), 7012)
            #expect(ContinuousClock.now - started < .seconds(6), "the sender waited for the app instead of its timeout")
            // Within the timeout the delayed reply arrives.
            let patient = try await pair.ok(["send", "--timeout", "20", #"{"slow":true}"#])
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
