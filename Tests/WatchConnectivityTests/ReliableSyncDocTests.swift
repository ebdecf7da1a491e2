import Foundation
import Testing

/// docs/ReliableSync.md shows only code that compiles: each Swift block must be a contiguous excerpt of
/// the example source named just before it (compared line by line, indentation aside).
@Suite("docs/ReliableSync.md quotes the examples")
struct ReliableSyncDocTests {
    @Test("every code block is Swift copied from the example file named before it")
    func blocksAreExcerpts() throws {
        let blocks = try DocBlock.blocks(of: "docs/ReliableSync.md")
        #expect(blocks.count >= 10, "the page lost its examples: \(blocks.count) blocks")
        for block in blocks {
            guard block.language == "swift" else {
                Issue.record("\(block) is '\(block.language)', not Swift copied from the example")
                continue
            }
            let source = try #require(block.linkOnLineBefore, "\(block) does not name its source: end the line before it with (../Examples/….swift)")
            let text = try DocBlock.text(source)
            let sourceLines = text.components(separatedBy: "\n").map(Self.trimmed)
            let wanted = block.lines.map(Self.trimmed)
            let found = !wanted.isEmpty && sourceLines.indices.contains { start in
                start + wanted.count <= sourceLines.count && Array(sourceLines[start..<start + wanted.count]) == wanted
            }
            #expect(found, "\(block) is not a contiguous excerpt of \(source)")
        }
    }

    static func trimmed(_ line: String) -> String {
        line.trimmingCharacters(in: .whitespaces)
    }
}
