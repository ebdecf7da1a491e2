import Foundation
import Synchronization
import Testing
import WatchPairWire

/// A phone and a watch daemon in a short temporary directory, driven with the real `wcctl`.
///
/// Layout of `dir` (made with `mkdtemp` under /tmp, so every socket path stays far below the 108 bytes
/// of `sun_path`): `phoned.json`/`watchd.json` (the generated configs, passed with `--config`),
/// `phoned.sock`/`watchd.sock` (link sockets), `phoned.ctl`/`watchd.ctl` (control sockets, found by
/// `wcctl` through `$WCCTL_RUNTIME_DIR`), `phoned/`/`watchd/` (state) and `phoned.err`/`watchd.err` (the
/// daemons' stderr, appended across restarts). Every process started through the sandbox is recorded
/// and killed and reaped by ``with(config:_:)``, whatever the test's outcome.
final class PairSandbox: Sendable {
    /// The temporary directory.
    let dir: String
    /// Where the binaries are.
    let bin: String

    private struct State {
        var children: [ChildProcess] = []
        var daemons: [Side: ChildProcess] = [:]
    }

    private let state = Mutex(State())

    private init(dir: String, bin: String) {
        self.dir = dir
        self.bin = bin
    }

    /// Runs `body` with a fresh sandbox; afterwards kills and reaps every child and removes the directory.
    ///
    /// `config` is merged into both daemons' generated config files (see ``configure(_:_:)``).
    /// When `body` throws, the daemons' stderr is recorded as an issue before the error propagates.
    static func with<T>(
        config: [String: JSONValue] = [:],
        _ body: (PairSandbox) async throws -> T
    ) async throws -> T {
        let bin = try BinaryDirectory.path()
        var template = Array("/tmp/wpt.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw SpawnError(attempted: "mkdtemp(/tmp/wpt.XXXXXX)", code: errno)
        }
        let sandbox = PairSandbox(dir: String(cString: made), bin: bin)
        do {
            for side in Side.allCases { try sandbox.configure(side, config) }
            let result = try await body(sandbox)
            await sandbox.tearDown()
            return result
        } catch {
            Issue.record("daemon stderr after the failure:\n\(sandbox.diagnostics())")
            await sandbox.tearDown()
            throw error
        }
    }

    // MARK: Paths and configuration

    /// A path inside the sandbox.
    func path(_ name: String) -> String { dir + "/" + name }
    /// The side's generated config file.
    func configPath(_ side: Side) -> String { path(side.daemon + ".json") }
    /// The side's stderr file.
    func stderrPath(_ side: Side) -> String { path(side.daemon + ".err") }
    /// The side's link socket.
    func linkPath(_ side: Side) -> String { path(side.daemon + ".sock") }
    /// The side's control socket.
    func controlPath(_ side: Side) -> String { path(side.daemon + ".ctl") }

    /// Writes the side's config: the sandbox paths, stderr logging, then `overrides` merged in
    /// (nested objects merge key by key).
    func configure(_ side: Side, _ overrides: [String: JSONValue]) throws {
        let base: JSONValue = .object([
            "paths": .object([
                "link": .string(linkPath(side)), "peerLink": .string(linkPath(side.peer)),
                "control": .string(controlPath(side)), "peerControl": .string(controlPath(side.peer)),
                "state": .string(path(side.daemon)),
            ]),
            "log": .object(["destination": .string("stderr")]),
            // Fast reconnects after the kills of the crash tests.
            "backoff": .object(["initial": .double(0.05), "maximum": .double(0.5)]),
            // A send without --timeout waits a minute, not 10 s, for a reply three processes pass on while
            // the whole process suite shares two cores; the tests about the timeout give their own.
            "timeouts": .object(["reply": .integer(60)]),
        ])
        let merged = Self.merge(base, .object(overrides))
        try Data((merged.canonicalText + "\n").utf8).write(to: URL(fileURLWithPath: configPath(side)))
    }

    /// Writes `text` as the side's config file as it is (for the bad-config tests).
    func writeRawConfig(_ side: Side, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: configPath(side)))
    }

    private static func merge(_ a: JSONValue, _ b: JSONValue) -> JSONValue {
        guard case .object(var left) = a, case .object(let right) = b else { return b }
        for (key, value) in right { left[key] = left[key].map { merge($0, value) } ?? value }
        return .object(left)
    }

    /// The environment of every child: PATH, plus `WCCTL_RUNTIME_DIR` for `wcctl`, nothing inherited
    /// from the test runner (no stray `WATCHPAIR_*` or `WCCTL_*` variables).
    var environment: [String: String] {
        ["PATH": "/usr/local/bin:/usr/bin:/bin", "WCCTL_RUNTIME_DIR": dir, "HOME": dir]
    }

    // MARK: Processes

    /// Starts any process and records it for the final cleanup.
    func spawn(
        name: String, executable: String, arguments: [String], environment extra: [String: String] = [:],
        stdout: ChildProcess.Output = .collect, stderr: ChildProcess.Output = .collect
    ) throws -> ChildProcess {
        let child = try ChildProcess(
            name: name, executable: executable, arguments: arguments,
            environment: environment.merging(extra) { $1 }, stdout: stdout, stderr: stderr)
        state.withLock { $0.children.append(child) }
        return child
    }

    /// Starts the side's daemon with its generated config; its stdout and stderr are appended to
    /// ``stderrPath(_:)``. `environment` adds variables (passed with `-E` under socket activation).
    ///
    /// `.socketActivated` first removes a stale link socket file (left by the previous activation's
    /// listener) and returns once `systemd-socket-activate` listens; the daemon itself runs only when
    /// the peer first connects.
    @discardableResult
    func startDaemon(_ side: Side, _ activation: Activation = .direct, environment extra: [String: String] = [:]) async throws -> ChildProcess {
        let daemon = bin + "/" + side.daemon
        let child: ChildProcess
        switch activation {
        case .direct:
            child = try spawn(
                name: side.daemon, executable: daemon, arguments: ["--config", configPath(side)],
                environment: extra, stdout: .file(stderrPath(side)), stderr: .file(stderrPath(side)))
        case .socketActivated:
            unlink(linkPath(side))
            let listening = "Listening on \(linkPath(side))"
            let before = occurrences(of: listening, in: side)
            // systemd-socket-activate passes on only PATH, TERM, USER, HOME and -E variables.
            let setenv = extra.sorted { $0.key < $1.key }.map { "-E\($0.key)=\($0.value)" }
            child = try spawn(
                name: "\(side.daemon) (socket-activated)", executable: "/usr/bin/systemd-socket-activate",
                arguments: ["-l", linkPath(side), "--fdname=\(side.daemon)"] + setenv + [daemon, "--config", configPath(side)],
                stdout: .file(stderrPath(side)), stderr: .file(stderrPath(side)))
            // It logs this line once it listens (after bind), so the peer's first connect is accepted.
            try await pollUntil("systemd-socket-activate listening on \(linkPath(side))", process: child) {
                self.occurrences(of: listening, in: side) > before
            }
        }
        state.withLock { $0.daemons[side] = child }
        return child
    }

    /// The side's current daemon process (the last one started).
    func daemon(_ side: Side) -> ChildProcess? { state.withLock { $0.daemons[side] } }

    /// Starts the side's daemon directly and waits until `wcctl status` answers.
    @discardableResult
    func startReady(_ side: Side) async throws -> ChildProcess {
        let child = try await startDaemon(side)
        try await waitReady(side)
        return child
    }

    /// Waits with `wcctl --side <side> wait ready` (bounded by `timeout`) until the daemon's session is
    /// activated and its control socket answers.
    func waitReady(_ side: Side, timeout: Duration = .seconds(20)) async throws {
        let run = try await wcctl(["wait", "ready", "--timeout", "\(timeout.components.seconds)"], side: side)
        if run.status == 0 { return }
        if let daemon = daemon(side), !daemon.isRunning {
            throw SandboxError("\(side) exited with \(daemon.exitStatus ?? -1) before it was ready:\n\(tail(side))")
        }
        throw SandboxError("\(side) not ready after \(timeout): \(run)\n\(tail(side))")
    }

    /// Polls `condition` (a readiness poll: short sleeps, bounded by a safety net a loaded machine never
    /// reaches in a passing test), failing early when `process` exits.
    func pollUntil(
        _ what: String, process: ChildProcess? = nil, timeout: Duration = .seconds(60),
        _ condition: @Sendable () async throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            if let process, !process.isRunning {
                throw SandboxError("\(process.name) exited with \(process.exitStatus ?? -1) while waiting for \(what):\n\(process.stderrText.suffix(4000))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw SandboxError("timed out after \(timeout) waiting for \(what)\n\(diagnostics())")
    }

    /// SIGKILLs the side's daemon and reaps it.
    func killDaemon(_ side: Side) async {
        await daemon(side)?.killAndReap()
    }

    /// Runs `wcctl --side <side> ARGS…` to completion (killed after `timeout`, a safety net).
    func wcctl(_ arguments: [String], side: Side = .phone, timeout: Duration = .seconds(40)) async throws -> WcctlRun {
        let all = ["--side", side.rawValue] + arguments
        let child = try spawn(name: "wcctl \(arguments.first ?? "")", executable: bin + "/wcctl", arguments: all)
        guard let status = await child.waitForExit(timeout: timeout) else {
            await child.killAndReap()
            throw SandboxError("wcctl \(all.joined(separator: " ")) did not finish within \(timeout)")
        }
        // The readers finish at end of file, right after the exit.
        await child.stdout.waitForEnd(timeout: .seconds(10))
        await child.stderr.waitForEnd(timeout: .seconds(10))
        return WcctlRun(arguments: all, status: status, stdout: child.stdout.lines, stderr: child.stderr.text)
    }

    /// Starts a long-running `wcctl --side <side> ARGS…` (e.g. `receive --follow`).
    func startWcctl(_ arguments: [String], side: Side) throws -> ChildProcess {
        try spawn(name: "wcctl \(side) \(arguments.joined(separator: " "))", executable: bin + "/wcctl", arguments: ["--side", side.rawValue] + arguments)
    }

    /// Starts `wcctl receive --follow …` (`arguments`) as the side's app and returns once its stream
    /// is set up: the daemon answers a `receive` only after attaching its message handler, and the
    /// answer is seen on the way through a ``ControlTap``. A message sent after this finds the handler.
    func startHandler(_ arguments: [String], side: Side) async throws -> ChildProcess {
        let tap = try ControlTap(path: path("tap-\(UInt16.random(in: 0...UInt16.max)).ctl"), upstream: controlPath(side))
        let child = try startWcctl(["--control", tap.path] + arguments, side: side)
        guard await tap.waitAnswered() else {
            throw SandboxError("wcctl \(arguments.joined(separator: " ")) got no answer from \(side.daemon): \(child.stderrText)")
        }
        return child
    }

    // MARK: Diagnostics and cleanup

    /// The end of the side's stderr file.
    func tail(_ side: Side, bytes: Int = 6000) -> String {
        let text = (try? String(contentsOfFile: stderrPath(side), encoding: .utf8)) ?? "(no stderr file)"
        return "--- \(side.daemon) stderr (last \(bytes) bytes) ---\n" + String(text.suffix(bytes))
    }

    /// How often `text` occurs in the side's stderr file.
    func occurrences(of text: String, in side: Side) -> Int {
        let log = (try? String(contentsOfFile: stderrPath(side), encoding: .utf8)) ?? ""
        return log.components(separatedBy: text).count - 1
    }

    /// Both daemons' stderr tails.
    func diagnostics() -> String {
        Side.allCases.map { tail($0) }.joined(separator: "\n")
    }

    /// Kills and reaps every child, then removes the directory.
    func tearDown() async {
        let children = state.withLock { $0.children }
        for child in children where child.isRunning { child.signal(SIGKILL) }
        for child in children {
            if await child.waitForExit(timeout: .seconds(30)) == nil {
                Issue.record("\(child.name) (pid \(child.pid)) could not be reaped")
            }
        }
        try? FileManager.default.removeItem(atPath: dir)
    }
}

/// A sandbox step that failed, with what was expected and the diagnostics.
struct SandboxError: Error, CustomStringConvertible {
    /// The explanation.
    var description: String
    init(_ description: String) { self.description = description }
}
