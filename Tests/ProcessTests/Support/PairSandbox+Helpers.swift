import Foundation
import Testing
import WatchPairWire

extension PairSandbox {
    /// Runs `wcctl` and requires exit 0; returns the run.
    @discardableResult
    func ok(_ arguments: [String], side: Side = .phone, sourceLocation: SourceLocation = #_sourceLocation) async throws -> WcctlRun {
        let run = try await wcctl(arguments, side: side)
        try #require(run.status == 0, "\(run)\n\(diagnostics())", sourceLocation: sourceLocation)
        return run
    }

    /// `wcctl transfer JSON` on `side`; returns the printed transfer id.
    @discardableResult
    func transfer(_ userInfo: String, side: Side = .phone, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let run = try await ok(["transfer", userInfo], side: side, sourceLocation: sourceLocation)
        let id = try #require(run.stdout.first, "\(run)", sourceLocation: sourceLocation)
        #expect(UUID(uuidString: id) != nil, "transfer printed \(id), not a transfer id", sourceLocation: sourceLocation)
        return id
    }

    /// `wcctl --json status` on `side`, parsed.
    func status(_ side: Side) async throws -> JSONValue {
        let run = try await ok(["--json", "status"], side: side)
        return try #require(run.object, "\(run)")
    }

    /// `wcctl --json events` on `side`: the events named in `names`, in the order the daemon recorded them.
    func events(_ side: Side, named names: Set<String>) async throws -> [JSONValue] {
        try await ok(["--json", "events"], side: side).json.filter { names.contains($0["event"]?.stringValue ?? "") }
    }

    /// `wcctl receive` (without --follow) on `side`: the printed items.
    func receivePending(_ side: Side, channels: [String] = []) async throws -> [JSONValue] {
        let run = try await ok(["receive"] + channels.flatMap { ["--channel", $0] }, side: side)
        #expect(run.json.count == run.stdout.count, "receive printed lines that are not JSON: \(run)")
        return run.json
    }
}

/// Checks that a failed `wcctl` run reports WCError `code`: exit status `100 + (code − 7000)` and one
/// stderr line `wcctl: error <code> (<name>): …`.
func expectWCError(_ run: WcctlRun, _ code: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(run.status == Int32(100 + code - 7000), "expected exit \(100 + code - 7000) for \(code): \(run)", sourceLocation: sourceLocation)
    let lines = run.stderr.split(separator: "\n")
    #expect(lines.count == 1, "expected one stderr line: \(run)", sourceLocation: sourceLocation)
    #expect(run.stderr.hasPrefix("wcctl: error \(code) ("), "stderr should name the code: \(run)", sourceLocation: sourceLocation)
    #expect(run.stdout.isEmpty, "nothing on stdout on failure: \(run)", sourceLocation: sourceLocation)
}
