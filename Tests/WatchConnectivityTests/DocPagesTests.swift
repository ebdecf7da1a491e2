import Foundation
import Testing

/// docs/WatchConnectivity.md and docs/WatchConnection.md show Swift that compiles: each Swift block is a
/// part of the repository file linked on the line before it (byte for byte once the part's common
/// indentation is removed; the files are compiled with the tests, e.g. Tests/WatchConnectionTests/Docs), or a
/// whole `Package.swift` that SwiftPM reads and that names only WatchPair's products. The blocks written
/// before this check are listed in `unchecked` until they move into compiled files; any other block fails.
@Suite("docs/WatchConnectivity.md and docs/WatchConnection.md quote code that compiles")
struct DocPagesTests {
    static let pages = ["docs/WatchConnectivity.md", "docs/WatchConnection.md"]

    /// The blocks not checked yet, as "page: first line".
    static let unchecked: Set<String> = [
        "docs/WatchConnectivity.md: import WatchConnectivity",
        "docs/WatchConnectivity.md: @Test(arguments: WCSessionTestMode.allCases)",
        "docs/WatchConnection.md: let configuration = WatchConnectionConfiguration(",
        "docs/WatchConnection.md: switch connection.sessionHealth {",
        "docs/WatchConnection.md: for await suggestion in connection.recoverySuggestions {",
        "docs/WatchConnection.md: let flakySession = FlakySession()             // a loopback: the connection answers itself",
    ]

    static func swiftBlocks() throws -> [DocBlock] {
        try pages.flatMap { try DocBlock.blocks(of: $0) }.filter { $0.language == "swift" }
    }

    static func isManifest(_ block: DocBlock) -> Bool {
        block.lines.first?.hasPrefix("// swift-tools-version:") == true
    }

    @Test("every Swift block is part of the compiled file linked before it")
    func blocksAreExcerpts() throws {
        let blocks = try Self.swiftBlocks().filter { !Self.isManifest($0) }
        #expect(blocks.count >= 9, "the pages lost blocks: \(blocks.count)")
        var listed: Set<String> = []
        for block in blocks {
            let key = "\(block.page): \(block.lines.first ?? "")"
            if Self.unchecked.contains(key) {
                listed.insert(key)
                continue
            }
            let source = try #require(block.linkOnLineBefore, "\(block) does not name its file: end the line before it with (../….swift)")
            #expect(try block.isPart(of: source), "\(block) is not a part of \(source), byte for byte")
        }
        #expect(listed == Self.unchecked, "listed as unchecked but no longer on the pages: \(Self.unchecked.subtracting(listed))")
    }

    @Test("the Package.swift of docs/WatchConnectivity.md is a manifest SwiftPM reads, naming WatchPair's products")
    func manifest() throws {
        let manifests = try Self.swiftBlocks().filter(Self.isManifest)
        let block = try #require(manifests.first { $0.page == "docs/WatchConnectivity.md" }, "no Package.swift block")
        let text = block.lines.joined(separator: "\n")
        #expect(text.contains(".package(path: \"../WatchPair\")"), "the dependency line")
        #expect(text.contains(".testTarget("), "a test target")
        let products = Set(text.matches(of: /\.product\(name: "([A-Za-z]+)", package: "WatchPair"\)/).map { String($0.1) })
        #expect(products == ["WatchConnectivity", "WatchConnectivityTesting"])
        let ours = try DocBlock.text("Package.swift")
        let named = ours.contains("name: \"WatchPair\"")
        #expect(named, "`package: \"WatchPair\"` is the name of the clone's directory and of this package")
        for product in products {
            let declared = ours.contains(".library(name: \"\(product)\"")
            #expect(declared, "WatchPair has no product \(product)")
        }
        let (status, printed) = try DocBlock.dumpPackage(text + "\n")
        #expect(status == 0, "swift package dump-package: \(printed)")
        #expect(printed.contains("\"ShoppingListTests\""))
    }
}

extension DocBlock {
    /// Whether the block's lines stand, one after the other, in the repository file `path`, once the
    /// indentation they share there is removed.
    func isPart(of path: String) throws -> Bool {
        let file = try DocBlock.text(path).components(separatedBy: "\n")
        guard !lines.isEmpty, lines.count <= file.count else { return false }
        return (0...(file.count - lines.count)).contains { start in
            let part = file[start..<start + lines.count]
            let indent = part.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
            return part.map { $0.isEmpty ? $0 : String($0.dropFirst(indent)) } == lines
        }
    }
}
