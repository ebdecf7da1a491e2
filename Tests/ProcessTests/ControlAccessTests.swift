import Foundation
import Testing
import WatchPairWire

/// The control socket's second lock (docs/Systemd.md, issue 13): even with its file mode opened up to
/// everyone, the daemon serves only root, its own user and members of the socket's group, and reports
/// every refusal as a `controlClientRefused` event. Needs root, to run the daemon and clients as
/// other users (`setpriv`).
@Suite("Control socket access", .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
struct ControlAccessTests {
    /// The daemon's user and group (no user-database entry needed).
    static let daemonUID = "4242"
    /// A user outside the group, and one whose group is the daemon's.
    static let strangerUID = "4343"
    static let memberUID = "4444"
    static let supplementaryMemberUID = "4545"

    /// `wcctl --side phone ARGS` as `uid`/`gid` with the supplementary `groups` (none by default).
    func wcctl(_ pair: PairSandbox, uid: String, gid: String, groups: String? = nil, _ arguments: [String]) async throws -> WcctlRun {
        let groupOption = groups.map { "--groups=\($0)" } ?? "--clear-groups"
        let child = try pair.spawn(
            name: "wcctl as \(uid)", executable: "/usr/bin/setpriv",
            arguments: ["--reuid=\(uid)", "--regid=\(gid)", groupOption, pair.bin + "/wcctl", "--side", "phone"] + arguments)
        let status = await child.waitForExit(timeout: .seconds(40)) ?? -1
        await child.stdout.waitForEnd(timeout: .seconds(10))
        await child.stderr.waitForEnd(timeout: .seconds(10))
        return WcctlRun(arguments: arguments, status: status, stdout: child.stdout.lines, stderr: child.stderr.text)
    }

    @Test("a stranger is refused (and it is an event); group members (primary, supplementary) and root are served")
    func strangerRefusedMemberServed() async throws {
        try await PairSandbox.with { pair in
            // The daemon runs as its own user and owns its directory; others may only traverse it.
            #expect(chown(pair.dir, 4242, 4242) == 0 && chmod(pair.dir, 0o755) == 0)
            _ = try pair.spawn(
                name: "phoned as \(Self.daemonUID)", executable: "/usr/bin/setpriv",
                arguments: ["--reuid=\(Self.daemonUID)", "--regid=\(Self.daemonUID)", "--clear-groups",
                            pair.bin + "/phoned", "--config", pair.configPath(.phone)],
                stdout: .file(pair.stderrPath(.phone)), stderr: .file(pair.stderrPath(.phone)))
            try await pair.waitReady(.phone)  // As root.

            var info = stat()
            #expect(stat(pair.controlPath(.phone), &info) == 0)
            #expect(info.st_mode & 0o777 == 0o660, "control socket mode \(String(info.st_mode & 0o777, radix: 8))")
            #expect(info.st_gid == 4242)
            // Open the mode up, as the reporter did: only the daemon's own check is left.
            #expect(chmod(pair.controlPath(.phone), 0o666) == 0)

            let stranger = try await wcctl(pair, uid: Self.strangerUID, gid: Self.strangerUID, ["transfers"])
            #expect(stranger.status == 101, "\(stranger)")
            #expect(stranger.stderr.contains("permission denied: uid \(Self.strangerUID) is not root"), "\(stranger)")
            #expect(stranger.stdout.isEmpty, "\(stranger)")

            let member = try await wcctl(pair, uid: Self.memberUID, gid: Self.daemonUID, ["--json", "status"])
            #expect(member.status == 0, "\(member)")
            #expect(member.object?["role"] == .string("phone"), "\(member)")

            let supplementary = try await wcctl(
                pair, uid: Self.supplementaryMemberUID, gid: Self.supplementaryMemberUID, groups: Self.daemonUID, ["transfers"])
            #expect(supplementary.status == 0, "\(supplementary)")

            let events = try await pair.ok(["events", "--json"])
            let refusals = events.json.filter { $0["event"] == .string("controlClientRefused") }
            #expect(refusals.count == 1, "\(events)")
            #expect(refusals.first?["message"]?.stringValue?.contains("uid=\(Self.strangerUID)") == true, "\(refusals)")
        }
    }
}
