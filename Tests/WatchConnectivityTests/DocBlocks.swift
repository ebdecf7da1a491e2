import Foundation

/// A fenced code block of one of the repository's Markdown pages, with the links the page gives before it:
/// what the doc tests (ReliableSyncDocTests, TestingGuideDocTests) compare with the files it quotes.
struct DocBlock: CustomStringConvertible {
    /// The repository: three levels above this file.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let page: String
    /// The line of the opening fence, from 1.
    let line: Int
    /// What follows the opening fence, e.g. `swift`.
    let language: String
    let lines: [String]
    /// The last `(../….swift)` link on the page before the block (the path after `../`).
    let lastLink: String?
    /// The last such link on the last non-empty line before the block.
    let linkOnLineBefore: String?

    var description: String { "the block at \(page):\(line)" }

    /// The text of `path`, relative to the repository.
    static func text(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every fenced block of `page` (a path relative to the repository), in order.
    static func blocks(of page: String) throws -> [DocBlock] {
        let lines = try text(page).components(separatedBy: "\n")
        func link(_ line: String) -> String? {
            line.matches(of: /\(\.\.\/([^)]+\.swift)\)/).last.map { String($0.1) }
        }
        var blocks: [DocBlock] = []
        var lastLink: String?
        var lineBefore = ""
        var index = 0
        while index < lines.count {
            let line = lines[index]
            guard line.hasPrefix("```") else {
                lastLink = link(line) ?? lastLink
                if !line.isEmpty { lineBefore = line }
                index += 1
                continue
            }
            let opening = index
            index += 1
            var body: [String] = []
            while index < lines.count, !lines[index].hasPrefix("```") {
                body.append(lines[index])
                index += 1
            }
            index += 1
            blocks.append(DocBlock(
                page: page, line: opening + 1, language: String(line.dropFirst(3)), lines: body, lastLink: lastLink,
                linkOnLineBefore: link(lineBefore)))
            lineBefore = ""
        }
        return blocks
    }
}

extension DocBlock {
    /// `swift package dump-package` of `manifest` placed as the docs say to place an app: a directory beside
    /// a clone named WatchPair (SwiftPM names a path dependency after its directory, so the manifest's
    /// `package: "WatchPair"` must resolve). Its exit status and output.
    static func dumpPackage(_ manifest: String) throws -> (status: Int32, output: String) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("doc-manifest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let app = scratch.appendingPathComponent("ShoppingList")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: scratch.appendingPathComponent("WatchPair"), withDestinationURL: repository)
        try manifest.write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let swift = Process()
        swift.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        swift.arguments = ["swift", "package", "--package-path", app.path, "dump-package"]
        let output = Pipe()
        swift.standardOutput = output
        swift.standardError = output
        try swift.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        swift.waitUntilExit()
        return (swift.terminationStatus, printed)
    }
}
