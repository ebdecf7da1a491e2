import Foundation
import Testing

/// `--version` of every binary: one line, name, version, commit, the same build for all four.
@Suite("--version")
struct VersionTests {
    @Test("phoned, watchd, wcctl and wcbench print one line: name, version, commit")
    func everyBinary() async throws {
        try await PairSandbox.with { pair in
            let version = try String(contentsOfFile: Self.packageFile("VERSION"), encoding: .utf8)
                .split(separator: "\n").first.map(String.init) ?? ""
            var builds: Set<String> = []
            for name in ["phoned", "watchd", "wcctl", "wcbench"] {
                let child = try pair.spawn(name: "\(name) --version", executable: pair.bin + "/" + name, arguments: ["--version"])
                #expect(await child.waitForExit(timeout: .seconds(30)) == 0, "\(name): \(child.stderrText)")
                await child.stdout.waitForEnd(timeout: .seconds(10))
                let lines = child.stdout.lines
                #expect(lines.count == 1, "\(name): \(lines)")
                let line = lines.first ?? ""
                #expect(line.hasPrefix("\(name) \(version) (commit "), "\(name): \(line)")
                #expect(line.wholeMatch(of: /[a-z]+ [0-9][^ ]* \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)/) != nil, "\(line)")
                builds.insert(String(line.dropFirst(name.count)))
            }
            #expect(builds.count == 1, "one version and commit for every binary: \(builds)")
        }
    }

    /// A file at the package's root, found from this source file's path.
    static func packageFile(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(name).path
    }
}
