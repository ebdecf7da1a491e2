import Foundation
import Testing
import WatchPairWire

/// `wcctl wait` against the real daemons: it waits for a control socket that does not exist yet, for
/// the peer, and for the queues to drain, and exits 4 when the condition does not hold in time.
@Suite("wcctl wait")
struct WaitTests {
    @Test("wait ready, started before the daemon, returns once the daemon is up")
    func readyBeforeTheDaemonStarts() async throws {
        try await PairSandbox.with { pair in
            let waiting = try pair.startWcctl(["wait", "ready", "--timeout", "30"], side: .watch)
            // Nothing to wait on yet: no socket, no daemon. It must still be waiting after the daemon's absence is plain.
            let early = try await pair.wcctl(["wait", "ready", "--timeout", "0.2"], side: .watch)
            #expect(early.status == 4, "\(early)")
            #expect(early.stderr.hasPrefix("wcctl: ready: not reached within 0.2 s"), "\(early)")
            #expect(waiting.isRunning, "wait ready ended before watchd started: \(waiting.stderrText)")

            try await pair.startDaemon(.watch)
            let status = await waiting.waitForExit(timeout: .seconds(30))
            #expect(status == 0, "wait ready: \(waiting.stderrText)\n\(pair.diagnostics())")
            try await pair.ok(["status"], side: .watch)
        }
    }

    @Test("wait for a control socket that never appears gives up at its timeout, not before (exit 4)")
    func absentSocketWaitsTheTimeout() async throws {
        try await PairSandbox.with { pair in
            let started = ContinuousClock.now
            // No daemon, and not even the socket's directory: wcctl watches the nearest ancestor.
            let run = try await pair.wcctl(["--control", pair.path("missing/ctl"), "wait", "ready", "--timeout", "0.5"], timeout: .seconds(20))
            let elapsed = ContinuousClock.now - started
            #expect(run.status == 4, "\(run)")
            // A lower bound only: a loaded machine makes the run longer, never shorter.
            #expect(elapsed >= .milliseconds(500), "gave up after \(elapsed)")
        }
    }

    @Test("wait drained: exit 4 while the watch is away, 0 once it has the transfer and the context")
    func drained() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.ok(["wait", "drained", "--timeout", "5"])  // Nothing sent yet.
            _ = try await pair.transfer(#"{"n":1}"#)
            try await pair.ok(["context", "set", #"{"v":1}"#])

            let away = try await pair.wcctl(["wait", "drained", "--timeout", "0.5"])
            #expect(away.status == 4, "\(away)")
            #expect(away.stdout.isEmpty, "\(away)")

            let unreachable = try await pair.wcctl(["wait", "reachable", "--timeout", "0.3"], side: .watch)
            #expect(unreachable.status == 4, "\(unreachable)")

            try await pair.startReady(.watch)
            let drained = try await pair.ok(["--json", "wait", "drained", "--timeout", "30"])
            #expect(drained.stdout == [#"{"met":true}"#], "\(drained)")
            // Drained means the peer has both.
            let received = try await pair.ok(["--json", "context", "get", "--received"], side: .watch)
            #expect(received.object?["version"] == .integer(1), "\(received)")
            #expect(try await pair.receivePending(.watch, channels: ["userInfo"]).count == 1)
            try await pair.ok(["wait", "idle", "--timeout", "30"])
            try await pair.ok(["wait", "reachable", "--timeout", "30"], side: .watch)
        }
    }

    @Test("wait handler: exit 4 before a receive --follow handler attaches, 0 after; a message then finds it")
    func handler() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let none = try await pair.wcctl(["wait", "handler", "--timeout", "0.3"], side: .watch)
            #expect(none.status == 4, "\(none)")
            let app = try pair.startWcctl(["receive", "--follow", "--reply", #"{"pong":1}"#], side: .watch)
            try await pair.ok(["wait", "handler", "--timeout", "20"], side: .watch)
            let reply = try await pair.ok(["send", #"{"ping":1}"#])
            #expect(reply.stdout == [#"{"pong":1}"#], "\(reply)")
            // The handler leaves: no handler any more.
            app.signal(SIGINT)
            _ = await app.waitForExit(timeout: .seconds(20))
            let gone = try await pair.wcctl(["wait", "handler", "--timeout", "0.3"], side: .watch)
            #expect(gone.status == 4, "\(gone)")
        }
    }

    @Test("wait handler TYPE: exit 4 until a serve of TYPE attaches (not a receive client, not another type), 0 after, 4 once it left")
    func handlerOfType() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            _ = try pair.startWcctl(["receive", "--follow", "--reply", "{}"], side: .phone)
            _ = try pair.startWcctl(["serve", "Other", "--reply", "{}"], side: .phone)
            let none = try await pair.wcctl(["wait", "handler", "Ping", "--timeout", "0.3"], side: .phone)
            #expect(none.status == 4 && none.stderr.contains("handler Ping"), "\(none)")
            let app = try pair.startWcctl(["serve", "Ping", "--reply", #"{"pong":1}"#], side: .phone)
            try await pair.ok(["wait", "handler", "Ping", "--timeout", "20"], side: .phone)
            let reply = try await pair.ok(["request", "Ping", "{}", "--mode", "immediate"], side: .watch)
            #expect(reply.stdout == [#"{"pong":1}"#], "\(reply)")
            app.signal(SIGINT)
            _ = await app.waitForExit(timeout: .seconds(20))
            let gone = try await pair.wcctl(["wait", "handler", "Ping", "--timeout", "0.3"], side: .phone)
            #expect(gone.status == 4, "\(gone)")
        }
    }

    @Test("wait: a bad condition or timeout is a usage error (exit 2)", arguments: [
        ["wait", "sleepy"], ["wait", "ready", "--timeout", "-1"], ["wait"], ["wait", "ready", "Ping"], ["wait", "handler", ""],
    ])
    func usage(arguments: [String]) async throws {
        try await PairSandbox.with { pair in
            let run = try await pair.wcctl(arguments)
            #expect(run.status == 2, "\(run)")
        }
    }
}
