import Foundation
import Testing

/// The host's boundary (docs/Design.md, "Layers"): `WCSession` and the daemons' faces call the host's
/// `AppChannels`, never its engine or store. A check of the sources, since both modules still import
/// WatchPairCore for its value types (transfers, contexts, status) and the compiler cannot tell the two
/// apart.
@Suite("Host boundary")
struct HostBoundaryTests {
    /// The directories, under the package root, whose sources must not name the engine or the store.
    static let checked = ["Sources/WatchConnectivity", "Sources/WatchPairDaemon"]
    /// Directories left out of the check (none: the daemons' control operations call `HostContext.channels`).
    static let excluded: [String] = []

    /// The host's internals an app's code must not name.
    static var internals: Regex<(Substring, Substring)> { #/\b(PairEngine|PairStore)\b/# }

    /// `path:line: names X` for every line of `text` that names one of ``internals``.
    static func violations(path: String, text: String) -> [String] {
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for match in line.matches(of: internals) {
                found.append("\(path):\(number + 1): names \(match.output.1)")
            }
        }
        return found
    }

    /// The Swift files under ``checked`` and not under ``excluded``, by path from the package root.
    static func sources() throws -> [(path: String, text: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var files: [(path: String, text: String)] = []
        for directory in checked {
            let base = root.appendingPathComponent(directory)
            let enumerator = try #require(FileManager.default.enumerator(atPath: base.path))
            for case let relative as String in enumerator where relative.hasSuffix(".swift") {
                let path = directory + "/" + relative
                guard !excluded.contains(where: { path.hasPrefix($0 + "/") }) else { continue }
                files.append((path, try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8)))
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    @Test func appFacingSourcesNameNeitherTheEngineNorTheStore() throws {
        let files = try Self.sources()
        #expect(files.count > 20, "found only \(files.map(\.path))")
        #expect(files.contains { $0.path == "Sources/WatchConnectivity/WCSession.swift" })
        #expect(files.contains { $0.path.hasPrefix("Sources/WatchPairDaemon/Control/") })
        #expect(files.flatMap { Self.violations(path: $0.path, text: $0.text) } == [])
    }

    /// What the check finds, so a name slipping back in fails it.
    @Test(arguments: [
        ("let engine: PairEngine", ["F.swift:1: names PairEngine"]),
        ("import WatchPairCore\ninit(store: PairStore, engine: PairEngine)", ["F.swift:2: names PairStore", "F.swift:2: names PairEngine"]),
        ("/// Forwards to ``PairEngine/open()``.", ["F.swift:1: names PairEngine"]),
        ("let channels: AppChannels\nlet status: EngineStatus", []),
        ("let engine = PairEngineering()\nlet store = MyPairStore()", []),
    ])
    func findsEveryNaming(text: String, expected: [String]) {
        #expect(Self.violations(path: "F.swift", text: text) == expected)
    }
}
