import Foundation
import Testing
import WatchPairWire

/// JSON arguments from a file (`@FILE`) and from standard input (`-`), end to end: a context of exactly
/// the documented 262,144 bytes, which no command line can carry, set with `wcctl` and received intact.
@Suite("wcctl payload files")
struct PayloadFileTests {
    /// A context whose encoded property list is exactly `bytes` long (what the payload limits measure).
    static func context(encodedBytes bytes: Int) -> PlistDictionary {
        var length = bytes
        while true {
            let context: PlistDictionary = ["blob": .string(String(repeating: "w", count: length))]
            let size = PlistCodec.encodedSize(context)
            if size == bytes { return context }
            length -= size - bytes
        }
    }

    static func write(_ context: PlistDictionary, to path: String) throws {
        try Data(PlistValue.dictionary(context).json.canonicalText.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test("context set @FILE and - carry a 262,144-byte context; one byte more is 7009")
    func largestContext() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let largest = Self.context(encodedBytes: 262_144)
            let file = pair.path("largest.json")
            try Self.write(largest, to: file)
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)).count > 128 * 1024, "the point: more than one argument can hold")

            let set = try await pair.ok(["--json", "context", "set", "@" + file])
            #expect(set.object?["version"] == .integer(1), "\(set)")
            try await pair.ok(["wait", "drained", "--timeout", "30"])
            let received = try await pair.ok(["context", "get", "--received"], side: .watch)
            #expect(received.object == PlistValue.dictionary(largest).json, "the watch received another context")

            // The same through standard input, changed by one character so it is sent again.
            var next = largest
            next["blob"] = .string("v" + String(repeating: "w", count: (largest["blob"]?.stringLength ?? 1) - 1))
            let nextFile = pair.path("next.json")
            try Self.write(next, to: nextFile)
            let shell = try pair.spawn(
                name: "wcctl context set -", executable: "/bin/sh",
                arguments: ["-c", "exec \"$0\" context set - < \"$1\"", pair.bin + "/wcctl", nextFile])
            #expect(await shell.waitForExit(timeout: .seconds(40)) == 0, "\(shell.stderrText)")

            let tooLarge = Self.context(encodedBytes: 262_145)
            try Self.write(tooLarge, to: file)
            expectWCError(try await pair.wcctl(["context", "set", "@" + file]), 7009)
            // A file that is not there is a local failure (exit 1) naming it.
            let missing = try await pair.wcctl(["transfer", "@" + pair.path("absent.json")])
            #expect(missing.status == 1 && missing.stderr.contains("absent.json"), "\(missing)")
        }
    }
}

extension PlistValue {
    /// The length of a string value (0 for anything else).
    fileprivate var stringLength: Int {
        if case .string(let s) = self { return s.count }
        return 0
    }
}
