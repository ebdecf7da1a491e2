import Logging
import Testing

@testable import Systemd

@Suite struct JournaldLogHandlerTests {
    @Test func stderrLineHasIdentifierPidLevelMessageAndSortedMetadata() {
        let line = JournaldLogHandler.stderrLine(
            identifier: "phoned",
            pid: 1234,
            level: .warning,
            message: "link lost",
            metadata: ["retry": .stringConvertible(2), "peer": ["id": "watch"]]
        )
        #expect(line == "phoned[1234]: WARNING link lost peer.id=watch retry=2")
    }

    @Test func stderrLineWithoutMetadataHasNoTrailingSpace() {
        let line = JournaldLogHandler.stderrLine(
            identifier: "watchd", pid: 7, level: .critical, message: "boom", metadata: [:]
        )
        #expect(line == "watchd[7]: CRITICAL boom")
    }

    @Test(arguments: [
        ("plain", "k=plain"),
        ("", "k=\"\""),
        ("two words", "k=\"two words\""),
        ("a=b", "k=\"a=b\""),
        ("say \"hi\"", "k=\"say \\\"hi\\\"\""),
        ("line\nbreak", "k=\"line\\nbreak\""),
        ("back\\slash", "k=\"back\\\\slash\""),
    ])
    func stderrLineQuotesValuesThatNeedIt(value: String, expected: String) {
        let line = JournaldLogHandler.stderrLine(
            identifier: "x", pid: 1, level: .info, message: "m", metadata: ["k": .string(value)]
        )
        #expect(line == "x[1]: INFO m \(expected)")
    }

    @Test func stderrLineKeepsMultiLineMessageOnOneLine() {
        let line = JournaldLogHandler.stderrLine(
            identifier: "x", pid: 1, level: .error, message: "first\nsecond\\", metadata: [:]
        )
        #expect(line == "x[1]: ERROR first\\nsecond\\\\")
    }

    @Test func mergeOverridesInOrderAndAddsError() {
        struct Failure: Error, CustomStringConvertible { var description: String { "disk full" } }
        let merged = JournaldLogHandler.merge(
            base: ["a": "base", "b": "base", "c": "base"],
            provided: ["b": "provided", "c": "provided"],
            explicit: ["c": "explicit"],
            error: Failure()
        )
        #expect(merged["a"] == "base")
        #expect(merged["b"] == "provided")
        #expect(merged["c"] == "explicit")
        #expect(merged["error.message"] == "disk full")
        #expect(merged["error.type"]?.description.hasSuffix("Failure") == true)
    }

    @Test func destinationResolvesAtInit() {
        #expect(!JournaldLogHandler(label: "t", identifier: "t", destination: .stderr).usesJournal)
        #expect(JournaldLogHandler(label: "t", identifier: "t", destination: .journal).usesJournal)
        let automatic = JournaldLogHandler(label: "t", identifier: "t", destination: .automatic)
        #expect(automatic.usesJournal == journalSocketExists())
    }

    @Test func handlerMetadataSubscriptAndDefaults() {
        var handler = JournaldLogHandler(label: "t", identifier: "t", destination: .stderr)
        #expect(handler.logLevel == .info)
        handler[metadataKey: "peer"] = "watch"
        #expect(handler.metadata == ["peer": "watch"])
        #expect(handler[metadataKey: "peer"] == "watch")
    }
}
