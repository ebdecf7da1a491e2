import Foundation
import Testing
import WatchPairWire

/// `--pair NAME` on the real daemons: a bad name stops them before they open anything (exit 64, one
/// sentence), and two daemons of different pairs refuse each other's link even when a path points one at
/// the other (their pair ids differ), so pairs never mix.
@Suite("Pair names")
struct PairNameProcessTests {
    @Test("a bad --pair is exit 64 and one stderr line saying why", arguments: [
        ("a/b", "may hold only ASCII letters"), ("default", "leave out the pair name"), ("", "must not be empty"),
    ])
    func badName(name: String, why: String) async throws {
        try await PairSandbox.with { pair in
            let phone = try pair.spawn(
                name: "phoned", executable: pair.bin + "/phoned", arguments: ["--pair", name, "--config", pair.configPath(.phone)])
            let status = await phone.waitForExit(timeout: .seconds(20))
            #expect(status == 64, "exit \(status.map(String.init) ?? "none (still running)")\n\(phone.stderr.text)")
            await phone.stderr.waitForEnd(timeout: .seconds(5))
            let first = phone.stderr.lines.first { !$0.isEmpty } ?? ""
            #expect(first.hasPrefix("phoned: --pair: ") && first.contains(why), "\(phone.stderr.lines)")
            #expect(!FileManager.default.fileExists(atPath: pair.controlPath(.phone)))
        }
    }

    @Test("apps of two pairs never link: the watch refuses the other pair's handshake and nothing crosses")
    func pairsDoNotMix() async throws {
        try await PairSandbox.with { pair in
            // The paths of the generated configs point the apps at each other; only --pair differs.
            let watch = try pair.spawn(
                name: "watchd", executable: pair.bin + "/watchd", arguments: ["--pair", "ci-4", "--config", pair.configPath(.watch)],
                stdout: .file(pair.stderrPath(.watch)), stderr: .file(pair.stderrPath(.watch)))
            _ = try pair.spawn(
                name: "phoned", executable: pair.bin + "/phoned", arguments: ["--pair", "ci-3", "--config", pair.configPath(.phone)],
                stdout: .file(pair.stderrPath(.phone)), stderr: .file(pair.stderrPath(.phone)))
            try await pair.waitReady(.watch)
            try await pair.waitReady(.phone)
            _ = try await pair.transfer(#"{"n":1}"#)
            try await pair.pollUntil("the watch to refuse the phone of pair ci-3", process: watch) {
                let events = try await pair.ok(["--json", "events", "--event", "handshakeFailed"], side: .watch)
                return events.json.contains { ($0["message"]?.stringValue ?? "").contains("'ci-3'") }
            }
            #expect(try await pair.receivePending(.watch, channels: ["userInfo"]).isEmpty, "a transfer crossed pairs")
            let phone = try await pair.status(.phone)
            #expect(phone["outstandingTransfers"] == .integer(1))
            let watchStatus = try await pair.status(.watch)
            #expect(phone["pair"] == .string("ci-3") && watchStatus["pair"] == .string("ci-4"), "status names each app's pair")
        }
    }
}
