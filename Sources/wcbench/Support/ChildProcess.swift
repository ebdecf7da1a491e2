import Glibc

/// A process wcbench started with `posix_spawn`, which it stops and reaps itself.
///
/// The child gets a clean signal mask and default dispositions (wcbench blocks SIGINT/SIGTERM in its own
/// threads to handle them in ``Cleanup``), standard input from `/dev/null`, and its output appended to the
/// given files. Every child leads a process group of its own and is registered with ``Cleanup`` until
/// reaped; signals go to the group, so an interrupted run still kills exactly the processes it started,
/// and a daemon under a `--daemon-wrapper` (strace detaches from its tracee when stopped) stops with it.
final class ChildProcess {
    /// The child's process id.
    let pid: pid_t
    /// A short name for messages (`phoned`, `perf`, ...).
    let name: String
    /// The wait status once reaped.
    private(set) var waitStatus: Int32?

    private init(pid: pid_t, name: String) {
        self.pid = pid
        self.name = name
    }

    /// Starts `path` with `arguments` (not including argv[0]).
    ///
    /// - Parameters:
    ///   - environment: the complete environment of the child.
    ///   - output: a file that receives the child's stdout and stderr (appended), or nil for /dev/null.
    ///   - keep: descriptors to hand over, each `(from, to)`: `from` is duplicated onto `to` in the child.
    static func spawn(
        _ path: String, _ arguments: [String], name: String,
        environment: [String: String], output: String?, keep: [(Int32, Int32)] = []
    ) throws(BenchError) -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let sink = output ?? "/dev/null"
        posix_spawn_file_actions_addopen(&actions, 1, sink, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Each descriptor is handed over from a copy numbered above every target, so no dup2 overwrites a
        // source still to be copied (a source may itself be 3 or 4) and none is its own target (dup2 onto
        // itself would keep close-on-exec).
        var copies: [Int32] = []
        defer { for copy in copies { close(copy) } }
        for (from, to) in keep {
            let copy = fcntl(from, F_DUPFD_CLOEXEC, 64)
            guard copy >= 0 else { throw BenchError.system("cannot hand descriptor \(from) to \(path)", errno: errno) }
            copies.append(copy)
            posix_spawn_file_actions_adddup2(&actions, copy, to)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.sorted { $0.key < $1.key }
            .map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        var rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        // ETXTBSY: the file was just written, and a process its writer was starting meanwhile still holds it
        // open for writing until that process's own exec closes it; that lasts microseconds.
        for _ in 0..<100 where rc == ETXTBSY {
            Monotonic.sleep(seconds: 0.01)
            rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        }
        guard rc == 0 else { throw BenchError.system("cannot start \(path)", errno: rc) }
        Cleanup.shared.register(pid)
        return ChildProcess(pid: pid, name: name)
    }

    /// The current environment without `WATCHPAIR_*` variables (so a user's settings cannot change
    /// what is measured), plus `overrides`.
    static func environment(_ overrides: [String: String] = [:]) -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                let key = String(text[..<equals])
                if !key.hasPrefix("WATCHPAIR_") { result[key] = String(text[text.index(after: equals)...]) }
            }
            pointer += 1
        }
        result.merge(overrides) { $1 }
        return result
    }

    /// Whether the process has not been reaped yet (it may be a zombie).
    var isRunning: Bool {
        if waitStatus != nil { return false }
        return reap(blocking: false) == nil
    }

    /// Sends `signal` to the child's process group; once the child is reaped its group is never
    /// signalled (the id may have been reused).
    func send(_ signal: Int32) {
        guard waitStatus == nil else { return }
        kill(-pid, signal)
    }

    /// Waits up to `seconds` for the process to exit; returns its wait status, or nil if it still runs.
    @discardableResult
    func wait(seconds: Double) -> Int32? {
        let deadline = Monotonic.deadline(seconds: seconds)
        while true {
            if let status = reap(blocking: false) { return status }
            if Monotonic.now() >= deadline { return nil }
            Monotonic.sleep(seconds: 0.001)
        }
    }

    /// SIGTERM, then SIGKILL after `grace` seconds; always reaps. Returns the wait status.
    @discardableResult
    func stop(grace: Double = 5) -> Int32 {
        if let waitStatus { return waitStatus }
        send(SIGTERM)
        if let status = wait(seconds: grace) { return status }
        send(SIGKILL)
        return reap(blocking: true) ?? -1
    }

    /// `exited 0`, `killed by signal 9`.
    static func describe(_ status: Int32) -> String {
        if status & 0x7f == 0 { return "exited \((status >> 8) & 0xff)" }
        return "killed by signal \(status & 0x7f)"
    }

    private func reap(blocking: Bool) -> Int32? {
        if let waitStatus { return waitStatus }
        var status: Int32 = 0
        while true {
            let rc = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if rc == pid {
                waitStatus = status
                Cleanup.shared.unregister(pid)
                return status
            }
            if rc == 0 { return nil }
            if rc < 0 && errno == EINTR { continue }
            // ECHILD: reaped elsewhere; treat as gone.
            waitStatus = -1
            Cleanup.shared.unregister(pid)
            return -1
        }
    }

    deinit {
        if waitStatus == nil { stop(grace: 2) }
    }
}
