import Foundation
import Testing

/// wcbench's usage errors: status 2 (as BENCHMARKS.md says and `wcctl` does) with the message on stderr,
/// before anything is started or measured.
@Suite("wcbench usage errors")
struct WcbenchUsageTests {
    @Test("a bad option combination or value exits 2 and says what is wrong", arguments: [
        (["--profile-switches", "--only", "baseline"], "--profile-switches needs --profile"),
        (["--only", "bogus"], "bogus"),
        (["--bin-dir", "/nonexistent"], "/nonexistent/phoned is not an executable"),
    ])
    func usageError(_ arguments: [String], _ message: String) async throws {
        try await PairSandbox.with { pair in
            let child = try pair.spawn(name: "wcbench " + arguments.joined(separator: " "), executable: pair.bin + "/wcbench", arguments: arguments)
            #expect(await child.waitForExit(timeout: .seconds(30)) == 2, "\(child.stderrText)")
            #expect(child.stderrText.contains(message), "\(child.stderrText)")
        }
    }
}
