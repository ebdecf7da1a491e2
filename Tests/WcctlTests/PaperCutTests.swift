import Testing
import WatchPairWire

@testable import WatchPairCLI

/// Small things people hit first: typos in command words, `null` in text output, `| head`.
@Suite("Paper cuts")
struct PaperCutTests {
    @Test("a mistyped command word gets a suggestion and exit 2", arguments: [
        (["stauts"], "wcctl: unknown command 'stauts'; did you mean 'status'? (see 'wcctl --help')"),
        (["--side", "watch", "recieve", "--follow"], "wcctl: unknown command 'recieve'; did you mean 'receive'? (see 'wcctl --help')"),
        (["context", "sett", "{}"], "wcctl context: unknown command 'sett'; did you mean 'set'? (see 'wcctl context --help')"),
        (["--json", "tran"], nil),  // transfer and transfers both begin with it: no guess.
        (["wait"], nil),  // A known command with a missing argument: ArgumentParser's own message.
    ] as [([String], String?)])
    func suggestions(arguments: [String], expected: String?) {
        #expect(CommandSuggestion.message(for: arguments) == expected)
        if let expected {
            let result = runWcctl(arguments, environment: ["WCCTL_CONTROL": "/nonexistent/ctl"])
            #expect(result.status == 2)
            #expect(result.err == expected + "\n")
        }
    }

    @Test("edit distance counts a transposition as one edit", arguments: [
        ("status", "status", 0), ("stauts", "status", 1), ("sned", "send", 1), ("evnts", "events", 1), ("xyz", "status", 6),
    ])
    func distance(a: String, b: String, expected: Int) {
        #expect(CommandSuggestion.distance(a, b) == expected)
    }

    @Test("status prints no null: a missing value is 'none'")
    func noNullInStatus() {
        let lines = OutputFormatter.statusLines(json(#"{"role":"phone","link":"disconnected","peerLaunch":null}"#))
        #expect(lines.contains("  peerLaunch: none"), "\(lines)")
        #expect(!lines.joined().contains("null"))
    }

    @Test("a closed standard output ends a listing quietly with 0")
    func quietBrokenPipe() throws {
        let streams = CapturedStreams()
        streams.closeOut()
        try withServer({ request in [Reply.ok(request, json(#"{"transfers":[]}"#))] }) { server in
            let result = runWcctl(["transfers"], server: server, streams: streams)
            #expect(result.status == 0)
            #expect(result.err.isEmpty, "\(result.err)")
        }
    }
}
