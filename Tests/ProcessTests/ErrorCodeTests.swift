import Foundation
import Testing
import WatchPairWire

/// Every WCError a user can provoke from the command line, with its exit status and stderr line
/// (README, docs/ControlProtocol.md), plus exit 3 (daemon not running) and 2 (usage).
@Suite("Error codes and exit statuses")
struct ErrorCodeTests {
    /// How the watch app is made unavailable for the 7007 test.
    enum WatchState: String, CaseIterable, CustomTestStringConvertible {
        /// Never started: no sockets at all.
        case neverStarted
        /// Stopped with SIGTERM: it removed its sockets.
        case stopped
        /// Killed with SIGKILL: its socket files are left behind, nobody listens on them.
        case killed

        var testDescription: String { rawValue }
    }

    @Test("7007 notReachable (exit 107) when the watch app is not running", arguments: WatchState.allCases)
    func notReachable(_ state: WatchState) async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            switch state {
            case .neverStarted:
                break
            case .stopped, .killed:
                // Linked first (a transfer went through), so the phone has a live link to lose.
                let watch = try await pair.startReady(.watch)
                _ = try await pair.transfer(#"{"warm":1}"#)
                try await pair.pollUntil("the link to carry the transfer") {
                    try await pair.status(.phone)["outstandingTransfers"] == .integer(0)
                }
                if state == .stopped {
                    #expect(await watch.stop() == 0, "watchd exits 0 after SIGTERM\n\(pair.tail(.watch))")
                } else {
                    await pair.killDaemon(.watch)
                }
                // The phone noticed (its link closed); its socket files may still be there after a kill.
                try await pair.pollUntil("the phone to see the watch gone") {
                    try await pair.status(.phone)["reachable"] == .bool(false)
                }
            }
            // "Fails at once", not at the reply timeout: with an hour's timeout, any answer within a minute
            // (however loaded the machine) cannot be the timeout's.
            let started = ContinuousClock.now
            let send = try await pair.wcctl(["send", "--timeout", "3600", #"{"ping":1}"#], timeout: .seconds(90))
            expectWCError(send, 7007)
            #expect(send.stderr.contains("notReachable"), "\(send)")
            #expect(ContinuousClock.now - started < .seconds(60), "7007 must come at once, not after a timeout")
            let data = pair.path("d.bin")
            try Data("x".utf8).write(to: URL(fileURLWithPath: data))
            expectWCError(try await pair.wcctl(["send-data", "--no-reply", data], timeout: .seconds(15)), 7007)
            // The phone keeps serving.
            #expect(try await pair.status(.phone)["reachable"] == .bool(false))
        }
    }

    @Test("7014 deliveryFailed (exit 114) when the watch app has no handler for the variant")
    func noHandler() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let file = pair.path("d.bin")
            try Data("x".utf8).write(to: URL(fileURLWithPath: file))
            // No receive --follow at all.
            expectWCError(try await pair.wcctl(["send", #"{"a":1}"#]), 7014)
            expectWCError(try await pair.wcctl(["send", "--no-reply", #"{"a":1}"#]), 7014)
            expectWCError(try await pair.wcctl(["send-data", file]), 7014)

            // A handler with a dictionary reply handles dictionary messages, not data ones with a reply.
            _ = try await pair.startHandler(["receive", "--follow", "--reply", #"{"ok":true}"#], side: .watch)
            let handled = try await pair.wcctl(["send", #"{"a":2}"#])
            #expect(handled.status == 0, "\(handled)")
            expectWCError(try await pair.wcctl(["send-data", file]), 7014)
        }
    }

    @Test("7012 messageReplyTimedOut (exit 112) when the handler never answers")
    func replyTimeout() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            // wcctl always answers, so a raw client plays the app that takes the message and never replies.
            let app = try await RawControlClient(path: pair.controlPath(.watch))
            defer { app.close() }
            try await app.send(line: #"{"id":1,"op":"receive","follow":true,"channels":["message"],"handle":["dictionaryWithReply"]}"#)
            let attached = await app.response(id: .integer(1))
            #expect(attached?["ok"] == .bool(true), "\(app.lines.lines)")

            let started = ContinuousClock.now
            // The answer came after the handler was attached: no retry needed.
            let send = try await pair.wcctl(["send", "--timeout", "1", #"{"q":"?"}"#])
            expectWCError(send, 7012)
            #expect(ContinuousClock.now - started >= .seconds(1), "7012 before the 1 s timeout ran out")
            // The app did get the message, with a token it never used.
            let event = app.responses.first { $0["event"] == .string("message") }
            #expect(event?["data"]?["variant"] == .string("dictionaryWithReply"), "\(app.lines.lines)")
            #expect(event?["data"]?["message"] == .object(["q": .string("?")]))
            #expect(event?["data"]?["token"]?.integerValue != nil)
        }
    }

    @Test("payload errors: 7009 too large, 7010 null, 7008 not JSON or not an object")
    func payloadErrors() async throws {
        let limits: JSONValue = .object(["message": .integer(1000), "userInfo": .integer(1000), "applicationContext": .integer(1000)])
        try await PairSandbox.with(config: ["limits": limits]) { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            _ = try await pair.startHandler(["receive", "--follow", "--channel", "message", "--reply", "{}"], side: .watch)
            let big = #"{"s":"\#(String(repeating: "x", count: 1500))"}"#
            let file = pair.path("big.bin")
            try Data(count: 1500).write(to: URL(fileURLWithPath: file))

            let cases: [([String], Int)] = [
                (["transfer", big], 7009),
                (["context", "set", big], 7009),
                (["send", big], 7009),
                (["send", "--no-reply", big], 7009),
                (["send-data", file], 7009),
                (["transfer", #"{"a":null}"#], 7010),
                (["send", #"{"a":[1,null]}"#], 7010),
                (["context", "set", #"{"a":{"b":null}}"#], 7010),
                (["transfer", #"{"a":"#], 7008),
                (["send", "not json"], 7008),
                (["context", "set", "[1,2]"], 7008),
                (["transfer", #""text""#], 7008),
                (["receive", "--follow", "--reply", "[1]"], 7008),
            ]
            for (arguments, code) in cases {
                let run = try await pair.wcctl(arguments)
                expectWCError(run, code)
            }
            // Payloads just under the limit are accepted; nothing above was queued.
            let fits = #"{"s":"\#(String(repeating: "x", count: 900))"}"#
            _ = try await pair.transfer(fits)
            let handled = try await pair.wcctl(["send", fits])
            #expect(handled.status == 0, "\(handled)")
            try await pair.ok(["wait", "drained", "--timeout", "20"])
            let received = try await pair.receivePending(.watch, channels: ["userInfo"])
            #expect(received.count == 1, "only the transfer that fits was accepted: \(received)")
            #expect(try await pair.ok(["context", "get"]).stdout == ["{}"], "no context was accepted")
        }
    }

    @Test("exit 3 when the daemon is not running, for every command")
    func daemonNotRunning() async throws {
        try await PairSandbox.with { pair in
            let commands: [([String], Side)] = [
                (["status"], .phone), (["send", "{}"], .phone), (["transfer", "{}"], .phone), (["transfers"], .phone),
                (["context", "get"], .phone), (["receive"], .phone), (["events"], .phone), (["status"], .watch),
                (["receive", "--follow"], .watch),
            ]
            for (arguments, side) in commands {
                let run = try await pair.wcctl(arguments, side: side)
                #expect(run.status == 3, "\(run)")
                #expect(run.stderr.hasPrefix("wcctl: ") && run.stderr.contains("not running"), "\(run)")
                #expect(run.stderr.split(separator: "\n").count == 1, "\(run)")
            }
        }
    }

    @Test("exit 2 for usage errors", arguments: [
        ["frobnicate"], ["send"], ["send", "{}", "--timeout", "-1"], ["--side", "tablet", "status"],
        ["transfers", "cancel"], ["receive", "--reply", "{}"], ["context"], ["status", "--bogus"],
    ])
    func usage(_ arguments: [String]) async throws {
        try await PairSandbox.with { pair in
            let run = try await pair.wcctl(arguments)
            #expect(run.status == 2, "\(run)")
            #expect(!run.stderr.isEmpty && run.stdout.isEmpty, "\(run)")
        }
    }
}
