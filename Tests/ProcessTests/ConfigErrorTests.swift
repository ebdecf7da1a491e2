import Foundation
import Testing
import WatchPairWire

/// Bad configuration stops a daemon before it opens anything: exit 78 and one stderr line naming the key.
@Suite("Configuration errors")
struct ConfigErrorTests {
    /// One bad configuration: extra config keys or raw file text, environment, and the key the error must name.
    struct BadConfig: Sendable, CustomTestStringConvertible {
        var name: String
        var overrides: [String: JSONValue] = [:]
        var rawFile: String?
        var environment: [String: String] = [:]
        var key: String

        var testDescription: String { name }
    }

    static let cases: [BadConfig] = [
        BadConfig(name: "negative reply timeout", overrides: ["timeouts": .object(["reply": .integer(-1)])], key: "timeouts.reply"),
        BadConfig(name: "zero idle exit", overrides: ["timeouts": .object(["idleExit": .integer(0)])], key: "timeouts.idleExit"),
        BadConfig(name: "duration as text", overrides: ["timeouts": .object(["handshake": .string("abc")])], key: "timeouts.handshake"),
        BadConfig(name: "unknown launch word", overrides: ["launch": .string("later")], key: "launch"),
        BadConfig(name: "zero message limit", overrides: ["limits": .object(["message": .integer(0)])], key: "limits.message"),
        BadConfig(name: "unknown durability", overrides: ["durability": .string("forever")], key: "durability"),
        BadConfig(name: "boolean limit", overrides: ["limits": .object(["userInfo": .bool(true)])], key: "limits.userInfo"),
        BadConfig(name: "wrong role", overrides: ["role": .string("watch")], key: "role"),
        BadConfig(
            name: "control path over 107 bytes",
            overrides: ["paths": .object(["control": .string("/tmp/" + String(repeating: "c", count: 120) + ".ctl")])],
            key: "paths.control"),
        BadConfig(name: "backoff maximum below initial", overrides: ["backoff": .object(["initial": .integer(2), "maximum": .integer(1)])], key: "backoff.maximum"),
        BadConfig(name: "zero queue expiry", overrides: ["layer": .object(["queueExpiry": .integer(0)])], key: "layer.queueExpiry"),
        BadConfig(
            name: "unhealthy below degraded", overrides: ["layer": .object(["degradedAfter": .integer(5), "unhealthyAfter": .integer(4)])],
            key: "layer.unhealthyAfter"),
        BadConfig(name: "layer key from the environment", environment: ["WATCHPAIR_LAYER_QUEUE_CAPACITY": "0"], key: "layer.queueCapacity"),
        BadConfig(name: "environment overrides the file", environment: ["WATCHPAIR_TIMEOUTS_IDLE_EXIT": "abc"], key: "timeouts.idleExit"),
        BadConfig(name: "environment list", environment: ["WATCHPAIR_ALLOWED_UIDS": "0,x"], key: "allowedUIDs"),
        BadConfig(name: "quirk probability above 1", environment: ["WATCHPAIR_QUIRKS_LATE_REPLY_PROBABILITY": "1.5"], key: "quirks.lateReply.probability"),
        BadConfig(name: "quirk delay backwards", overrides: ["quirks": .object(["delayedDelivery": .object(["delay": .string("3...1")])])], key: "quirks.delayedDelivery.delay"),
        BadConfig(name: "misspelt quirk in the file", overrides: ["quirks": .object(["lateRepy": .object(["count": .integer(1)])])], key: "quirks.lateRepy.count"),
        BadConfig(name: "misspelt quirk in the environment", environment: ["WATCHPAIR_QUIRKS_LATE_REPY_COUNT": "1"], key: "WATCHPAIR_QUIRKS_LATE_REPY_COUNT"),
        BadConfig(name: "a watch name that is not a pair name", overrides: ["watches": .array([.string("a/b")])], key: "watches"),
        BadConfig(name: "a watch listed twice", overrides: ["watches": .array([.string("a"), .string("a")])], key: "watches"),
        BadConfig(name: "file that is not JSON", rawFile: #"{"timeouts": {"reply": }"#, key: "phoned.json"),
    ]

    @Test("exit 78 and a stderr line naming the key", arguments: cases)
    func badValue(_ bad: BadConfig) async throws {
        try await PairSandbox.with(config: bad.overrides) { pair in
            if let raw = bad.rawFile { try pair.writeRawConfig(.phone, raw) }
            let phone = try pair.spawn(
                name: "phoned", executable: pair.bin + "/phoned", arguments: ["--config", pair.configPath(.phone)],
                environment: bad.environment)
            let status = await phone.waitForExit(timeout: .seconds(20))
            #expect(status == 78, "exit \(status.map(String.init) ?? "none (still running)")\n\(phone.stderr.text)")
            await phone.stderr.waitForEnd(timeout: .seconds(5))
            let lines = phone.stderr.lines.filter { !$0.isEmpty }
            #expect(lines.count == 1, "one stderr line: \(lines)")
            #expect(lines.first?.hasPrefix("phoned: config: ") == true, "\(lines)")
            #expect(lines.first?.contains(bad.key) == true, "the line must name \(bad.key): \(lines)")
            // Nothing was opened: no control socket, no link socket, no state directory.
            for file in [pair.controlPath(.phone), pair.linkPath(.phone), pair.path("phoned")] {
                #expect(!FileManager.default.fileExists(atPath: file), "\(file) exists after a config error")
            }
        }
    }

    @Test("exit 64 for an unknown argument; --help prints the usage and exits 0")
    func arguments() async throws {
        try await PairSandbox.with { pair in
            let bad = try pair.spawn(name: "watchd", executable: pair.bin + "/watchd", arguments: ["--frobnicate"])
            #expect(await bad.waitForExit(timeout: .seconds(20)) == 64)
            let help = try pair.spawn(name: "watchd", executable: pair.bin + "/watchd", arguments: ["--help"])
            #expect(await help.waitForExit(timeout: .seconds(20)) == 0)
            await help.stdout.waitForEnd(timeout: .seconds(5))
            #expect(help.stdout.text.contains("USAGE: watchd"), "\(help.stdout.text)")
        }
    }
}
