import Foundation
import Testing

/// docs/ReliableSync.md shows only code that compiles: each Swift block must be a contiguous excerpt of
/// the example source named just before it (compared line by line, indentation aside).
@Suite("docs/ReliableSync.md quotes the examples")
struct ReliableSyncDocTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A Swift block of the page, and the source its preceding text names.
    struct Block: CustomStringConvertible {
        let line: Int
        let language: String
        let source: String?
        let lines: [String]
        var description: String { "the block at docs/ReliableSync.md:\(line)" }
    }

    static func blocks() throws -> [Block] {
        let page = try String(contentsOf: repository.appendingPathComponent("docs/ReliableSync.md"), encoding: .utf8)
        let lines = page.components(separatedBy: "\n")
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            guard lines[index].hasPrefix("```") else {
                index += 1
                continue
            }
            let opening = index
            let language = lines[index].dropFirst(3)
            index += 1
            var body: [String] = []
            while index < lines.count, !lines[index].hasPrefix("```") {
                body.append(lines[index])
                index += 1
            }
            index += 1
            // The source is the last `(../Examples/….swift)` link in the text before the block.
            let before = lines[..<opening].reversed().first { !$0.isEmpty } ?? ""
            let source = before.firstMatch(of: /\(\.\.\/(Examples\/[^)]+\.swift)\)/).map { String($0.1) }
            blocks.append(Block(line: opening + 1, language: String(language), source: source, lines: body))
        }
        return blocks
    }

    @Test("every code block is Swift copied from the example file named before it")
    func blocksAreExcerpts() throws {
        let blocks = try Self.blocks()
        #expect(blocks.count >= 10, "the page lost its examples: \(blocks.count) blocks")
        for block in blocks {
            guard block.language == "swift" else {
                Issue.record("\(block) is '\(block.language)', not Swift copied from the example")
                continue
            }
            let source = try #require(block.source, "\(block) does not name its source: end the line before it with (../Examples/….swift)")
            let text = try String(contentsOf: Self.repository.appendingPathComponent(source), encoding: .utf8)
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
