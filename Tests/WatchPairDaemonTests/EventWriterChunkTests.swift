import Testing

@testable import WatchPairHost

/// A batch of stderr lines goes out in as few writes as fit in the limit, whole lines only, in order.
@Suite("stderr event lines in batches")
struct EventWriterChunkTests {
    static let cases: [(lines: [String], limit: Int, expected: [String])] = [
        ([], 10, []),
        (["a"], 10, ["a\n"]),
        (["aaa", "bbb"], 8, ["aaa\nbbb\n"]),  // exactly the limit: one write
        (["aaa", "bbb", "c"], 8, ["aaa\nbbb\n", "c\n"]),
        (["a", "bbbbbbbbbbbb", "c"], 8, ["a\n", "bbbbbbbbbbbb\n", "c\n"]),  // a longer line goes alone
        (["aaaaaaa", "b"], 8, ["aaaaaaa\n", "b\n"]),
    ]

    @Test("chunks", arguments: cases.indices)
    func chunks(_ index: Int) {
        let (lines, limit, expected) = Self.cases[index]
        var packed = LineChunks(limit: limit)
        for line in lines { packed.appendLine { $0.append(contentsOf: line.utf8) } }
        let chunks = packed.finish().map { String(decoding: $0, as: UTF8.self) }
        #expect(chunks == expected)
        #expect(chunks.joined() == lines.map { $0 + "\n" }.joined())
    }
}
