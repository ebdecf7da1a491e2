import Foundation
import Testing
import WatchPairWire

/// `wcctl request` and `wcctl serve` over the real daemons: typed requests through each app's
/// reliability layer (docs/WatchConnection.md), in the wire form any language can speak.
@Suite("typed requests through the daemons' reliability layer")
struct TypedRequestProcessTests {
    @Test("a request from the watch runs the phone's serve handler once and prints its response")
    func roundTrip() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let app = try await pair.startHandler(["serve", "FetchRecipe", "--reply", #"{"title":"Soup"}"#], side: .phone)
            let run = try await pair.ok(["request", "FetchRecipe", #"{"id":"42"}"#], side: .watch)
            #expect(run.stdout == [#"{"title":"Soup"}"#], "\(run)")
            #expect(await app.stdout.wait(timeout: .seconds(20)) { $0.count >= 1 }, "serve printed \(app.stdout.lines)")
            #expect(app.stdout.lines == [#"{"body":{"id":"42"},"type":"FetchRecipe"}"#])
            // --json: the control result as it is.
            let json = try await pair.ok(["--json", "request", "FetchRecipe", "{}", "--strategy", "messageOnly", "--mode", "immediate"], side: .watch)
            #expect(json.stdout == [#"{"response":{"title":"Soup"}}"#], "\(json)")
        }
    }

    @Test("serve --reply-from: the command runs once per request, with the body on its input; its output is the response")
    func replyFromCommand() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let seen = pair.path("seen.log")
            let command = "{ cat; echo; } >> \(seen); echo '{\"ok\":true}'"
            _ = try await pair.startHandler(["serve", "Count", "--reply-from", command], side: .phone)
            for n in 1...3 {
                let run = try await pair.ok(["request", "Count", #"{"n":\#(n)}"#], side: .watch)
                #expect(run.stdout == [#"{"ok":true}"#], "\(run)")
            }
            let lines = try String(contentsOfFile: seen, encoding: .utf8).split(separator: "\n")
            #expect(lines == [#"{"n":1}"#, #"{"n":2}"#, #"{"n":3}"#], "the handler command ran for \(lines)")
            // A command that fails answers with an error: the sender gets 7014 naming the type.
            _ = try await pair.startHandler(["serve", "Count", "--reply-from", "exit 3"], side: .phone)
            let failed = try await pair.wcctl(["request", "Count", "{}"], side: .watch)
            expectWCError(failed, 7014)
            #expect(failed.stderr.contains("'Count'") && failed.stderr.contains("7001"), "\(failed)")
        }
    }

    @Test("a request with no handler at the peer is 7014 naming the type, without retries or fallback")
    func unknownType() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let run = try await pair.wcctl(["request", "NoSuchType", "{}"], side: .watch)
            expectWCError(run, 7014)
            #expect(run.stderr.contains("'NoSuchType'"), "\(run)")
        }
    }

    @Test("serve --error: the sender gets 7014 naming the type and the app's code")
    func failingHandler() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            _ = try await pair.startHandler(["serve", "Sync", "--error", "7011"], side: .phone)
            let run = try await pair.wcctl(["request", "Sync", "{}"], side: .watch)
            expectWCError(run, 7014)
            #expect(run.stderr.contains("'Sync'") && run.stderr.contains("7011"), "\(run)")
        }
    }

    @Test("immediate mode to a phone app that is not running is 7007 at once")
    func unreachable() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.watch)
            // An hour's retry timeout: an answer within a minute, however loaded the machine, is not its.
            let started = ContinuousClock.now
            let run = try await pair.wcctl(["request", "Ping", "{}", "--mode", "immediate", "--retry", "3/3600"], side: .watch, timeout: .seconds(90))
            expectWCError(run, 7007)
            #expect(ContinuousClock.now - started < .seconds(60), "immediate mode waited for the retry timeout")
        }
    }

    @Test("bad options are usage errors (exit 2) before anything is sent", arguments: [
        ["request", "T", "{}", "--strategy", "carrierPigeon"],
        ["request", "T", "{}", "--mode", "later"],
        ["request", "T", "{}", "--retry", "0/10"],
        ["request", "T", "{}", "--retry", "3/-1"],
        ["serve", "T", "--reply", "{}", "--error", "7011"],
        ["serve", "T", "--error", "42"],
        ["serve", "T", "--reply-from", "cat", "--reply", "{}"],
        ["serve", "T", "--reply-from", "cat", "--delay", "1"],
    ])
    func usage(arguments: [String]) async throws {
        try await PairSandbox.with { pair in
            let run = try await pair.wcctl(arguments, side: .watch)
            #expect(run.status == 2, "\(run)")
        }
    }

    @Test("a body that is not JSON is 7008 before connecting")
    func badBody() async throws {
        try await PairSandbox.with { pair in
            expectWCError(try await pair.wcctl(["request", "T", "{nope"], side: .watch), 7008)
        }
    }
}
