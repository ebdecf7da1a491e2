import Foundation
import Glibc
import Synchronization

/// Everything a run must undo at exit: the processes it started and its temporary directory.
///
/// SIGINT, SIGTERM and SIGHUP are blocked in every thread and taken by one thread with `sigwait`, which
/// stops the registered children (SIGTERM, then SIGKILL after 2 s), removes the temporary directory
/// (unless kept) and exits with 128 + the signal. Only processes this run spawned are ever signalled,
/// by pid. The set of pids is bounded by what the run starts (a handful at a time).
final class Cleanup: Sendable {
    /// The process-wide registry.
    static let shared = Cleanup()

    private struct State {
        var pids: Set<pid_t> = []
        var directory: String?
        var keepDirectory = false
    }
    private let state = Mutex(State())

    /// Adds a child to stop on interruption.
    func register(_ pid: pid_t) { state.withLock { _ = $0.pids.insert(pid) } }

    /// Forgets a child once it has been reaped.
    func unregister(_ pid: pid_t) { state.withLock { _ = $0.pids.remove(pid) } }

    /// The run's temporary directory, removed on interruption unless `keep`.
    func setDirectory(_ path: String, keep: Bool) {
        state.withLock {
            $0.directory = path
            $0.keepDirectory = keep
        }
    }

    /// Blocks the termination signals and starts the thread that handles them. Call first in `main`,
    /// before any other thread exists, so every thread inherits the mask.
    func installSignalHandling() {
        signal(SIGPIPE, SIG_IGN)
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let waited = set
        Thread.detachNewThread {
            var mask = waited
            var received: Int32 = 0
            sigwait(&mask, &received)
            Cleanup.shared.interrupted(by: received)
        }
    }

    private func interrupted(by signal: Int32) {
        let message = "wcbench: interrupted (signal \(signal)); stopping the processes it started\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        let (pids, directory, keep) = state.withLock { ($0.pids, $0.directory, $0.keepDirectory) }
        // Each child leads its own process group (``ChildProcess``): the group takes a wrapper's daemon too.
        for pid in pids { kill(-pid, SIGTERM) }
        let deadline = Monotonic.deadline(seconds: 2)
        var remaining = pids
        while !remaining.isEmpty, Monotonic.now() < deadline {
            remaining = remaining.filter { waitpid($0, nil, WNOHANG) == 0 }
            Monotonic.sleep(seconds: 0.01)
        }
        for pid in remaining {
            kill(-pid, SIGKILL)
            waitpid(pid, nil, 0)
        }
        if let directory, !keep { try? FileManager.default.removeItem(atPath: directory) }
        _exit(128 + signal)
    }
}
