import Foundation
import Testing

/// docs/Testing.md shows only code that compiles and runs: each Swift block is a contiguous part of the
/// repository file linked last before it (the recipes in Tests/WatchConnectivityTestingTests/Guide), byte
/// for byte once the part's common indentation is removed; the `Package.swift` block's manifest is read by
/// SwiftPM itself.
@Suite("docs/Testing.md quotes code that runs")
struct TestingGuideDocTests {
    static let guide = "docs/Testing.md"

    /// `lines` without the indentation they all share.
    static func dedented(_ lines: ArraySlice<String>) -> [String] {
        let indent = lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { $0.isEmpty ? $0 : String($0.dropFirst(indent)) }
    }

    @Test("every block is Swift copied from the file linked before it")
    func blocksAreExcerpts() throws {
        let blocks = try DocBlock.blocks(of: Self.guide)
        #expect(blocks.count >= 9, "the guide lost its recipes: \(blocks.count) blocks")
        for block in blocks {
            guard block.language == "swift" else {
                Issue.record("\(block) is '\(block.language)': every block is Swift from a file of the repository")
                continue
            }
            let source = try #require(block.lastLink, "\(block) has no (../….swift) link before it")
            let file = try DocBlock.text(source).components(separatedBy: "\n")
            let found = file.indices.contains { start in
                start + block.lines.count <= file.count && Self.dedented(file[start..<start + block.lines.count]) == block.lines
            }
            #expect(found, "\(block) is not a part of \(source), byte for byte")
        }
    }

    @Test("the guide has a section for each part of the kit, and cites nothing outside the repository")
    func sections() throws {
        let page = try DocBlock.text(Self.guide)
        for section in [
            "Installing the test kit", "Awaiting callbacks", "Awaiting a reply", "Time: the self-driving clock, or stepping it", "Logging",
            "Faults",
        ] {
            #expect(page.contains("\n## \(section)\n"), "no section \(section)")
        }
        // That it cites nothing outside the repository is the static check contract-citations.sh.
        #expect(try DocBlock.text("README.md").contains("(docs/Testing.md)"), "README links the guide")
    }

    @Test("the manifest the guide quotes is one SwiftPM reads, naming WatchPair's products")
    func manifest() throws {
        let quoted = try #require(try DocBlock.blocks(of: Self.guide).first { $0.lastLink == "Examples/TestKit/Package.swift" })
        let products = quoted.lines.joined().matches(of: /\.product\(name: "([A-Za-z]+)", package: "WatchPair"\)/).map { String($0.1) }
        #expect(Set(products) == ["WatchConnectivity", "WatchConnectivityTesting"])
        let ours = try DocBlock.text("Package.swift")
        for product in products { #expect(ours.contains(".library(name: \"\(product)\""), "WatchPair has no product \(product)") }
        // SwiftPM names a path dependency after its directory: beside a clone named WatchPair, the
        // manifest's `package: "WatchPair"` must resolve.
        let (status, printed) = try DocBlock.dumpPackage(DocBlock.text("Examples/TestKit/Package.swift"))
        #expect(status == 0, "swift package dump-package: \(printed)")
        #expect(printed.contains("\"WatchConnectivityTesting\""))
    }
}
