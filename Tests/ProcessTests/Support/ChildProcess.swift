import Foundation
import Synchronization
import WatchPairCore
import WatchPairTesting

/// A real child process started by a test: its output collected, its exit awaited, always reaped.
///
/// Started with `posix_spawn` (not Foundation's `Process`, whose exit notification was lost when
/// dozens of tests spawned at once). Standard output and standard error each go to a ``LineLog`` (read
/// by a thread of their own) or are appended to a file; standard input is `/dev/null`; signal
/// dispositions and the signal mask are reset to the defaults. A thread per child waits for its exit
/// (`waitid` with `WNOWAIT`, then `waitpid`), so waiting never blocks the cooperative pool and a signal
/// is never sent to a pid that was already reaped (and possibly reused).
final class ChildProcess: Sendable {
    /// Where one output stream goes.
    enum Output: Sendable {
        /// Read into a ``LineLog``.
        case collect
        /// Appended to a file (daemons' stderr: kept for diagnostics after the process is gone).
        case file(String)
    }

    /// A short name for messages (`phoned`, `wcctl send`).
    let name: String
    /// The process id.
    let pid: Int32
    /// Standard output (empty when sent to a file).
    let stdout = LineLog()
    /// Standard error (empty when sent to a file).
    let stderr = LineLog()
    /// The stderr file, when stderr goes to one.
    let stderrPath: String?

    private let exit = ExitLatch()
    /// The logs read from the child (the others go to files).
    private let collected: [LineLog]

    /// Starts `executable` with exactly `arguments` and `environment`.
    init(
        name: String, executable: String, arguments: [String], environment: [String: String],
        stdout stdoutMode: Output = .collect, stderr stderrMode: Output = .collect
    ) throws {
        self.name = name
        if case .file(let path) = stderrMode { stderrPath = path } else { stderrPath = nil }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)

        var parentEnds: [(fd: Int32, log: LineLog, what: String)] = []
        var childEnds: [Int32] = []
        defer { for fd in childEnds { Glibc.close(fd) } }
        for (target, mode, log, what) in [(Int32(1), stdoutMode, stdout, "stdout"), (Int32(2), stderrMode, stderr, "stderr")] {
            switch mode {
            case .collect:
                // A socket pair, because it can be made close-on-exec atomically (Glibc hides pipe2): no
                // child spawned concurrently by another test inherits it and holds our end of file back.
                var fds: [Int32] = [-1, -1]
                guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
                    throw SpawnError(attempted: "socketpair for \(name) \(what)", code: errno)
                }
                parentEnds.append((fds[0], log, what))
                childEnds.append(fds[1])
                posix_spawn_file_actions_adddup2(&actions, fds[1], target)
            case .file(let path):
                // O_APPEND: stdout and stderr (and restarts) share the file without overwriting each other.
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            for end in parentEnds { Glibc.close(end.fd) }
            throw SpawnError(attempted: "posix_spawn(\(executable))", code: result)
        }
        self.pid = pid
        collected = parentEnds.map(\.log)
        for end in parentEnds { end.log.drain(fileDescriptor: end.fd, name: "\(name) \(end.what)") }
        exit.watch(pid: pid, name: name)
    }

    /// True until the process exited.
    var isRunning: Bool { exit.status == nil }

    /// The exit status, or 128 + signal number when a signal ended it; nil while running.
    var exitStatus: Int32? { exit.status }

    /// Waits for the exit and for the last of its collected output; nil when `timeout` passed first
    /// (the process keeps running).
    func waitForExit(timeout: Duration) async -> Int32? {
        guard let status = await exit.wait(timeout: timeout) else { return nil }
        // What the child wrote just before it exited may still be in a reader thread: a test that
        // checks the output after the exit must see all of it (a CI run saw none).
        for log in collected { await log.waitForEnd(timeout: .seconds(10)) }
        return status
    }

    /// Sends `signal` unless the process already exited.
    func signal(_ signal: Int32) {
        exit.signal(pid: pid, signal)
    }

    /// SIGKILLs the process and waits until it is reaped; returns its exit status.
    @discardableResult
    func killAndReap() async -> Int32? {
        signal(SIGKILL)
        return await waitForExit(timeout: .seconds(30))
    }

    /// Asks the process to stop (SIGTERM); returns its exit status, or nil when it did not stop within
    /// `grace` (it is then SIGKILLed and reaped, and the caller's expectation of a clean stop fails).
    @discardableResult
    func stop(grace: Duration = .seconds(10)) async -> Int32? {
        signal(SIGTERM)
        if let status = await waitForExit(timeout: grace) { return status }
        await killAndReap()
        return nil
    }

    /// The stderr file's contents, or the collected stderr (for failure messages).
    var stderrText: String {
        if let stderrPath { return (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
        return stderr.text
    }
}

/// A failed system call of the harness (`mkdtemp`, `socketpair`, `posix_spawn`), with what was
/// attempted and the error number.
struct SpawnError: Error, CustomStringConvertible {
    /// What was attempted.
    var attempted: String
    /// The error number.
    var code: Int32
    /// Both, with the system's text.
    var description: String { "\(attempted): \(String(cString: strerror(code))) (errno \(code))" }
}

/// The exit status of a child: set once by its waiter thread, awaited by tests.
private final class ExitLatch: Sendable {
    /// The exit status once reaped (under the lock `signal` takes too).
    private let state = Mutex<Int32?>(nil)
    /// Fires once, when the status is set.
    private let exited = AsyncSignal()

    var status: Int32? { state.withLock { $0 } }

    /// Starts the thread that waits for `pid` to exit and reaps it.
    func watch(pid: pid_t, name: String) {
        let thread = Thread { [self] in
            // Wait without reaping, so `signal` (under the same lock) never targets a reaped pid.
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
            state.withLock { status in
                var raw: Int32 = 0
                while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
                // WIFEXITED: low 7 bits zero; then the status is in bits 8-15. Otherwise killed by signal.
                let signal = raw & 0x7f
                status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
            }
            exited.fire()
        }
        thread.name = "reaper \(name) \(pid)"
        thread.start()
    }

    func signal(pid: pid_t, _ signal: Int32) {
        state.withLock { status in
            if status == nil { _ = kill(pid, signal) }
        }
    }

    /// The exit status; nil when `timeout` passed first.
    func wait(timeout: Duration) async -> Int32? {
        try? await withTimeout(timeout, "the exit") { try await self.exited.first { self.status } }
    }
}
