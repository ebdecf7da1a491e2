import Glibc
import Synchronization

/// Turns SIGINT and SIGTERM into a readable file descriptor (the self-pipe trick), so the blocking
/// `poll(2)` of a `--follow` stream wakes up and the command ends cleanly with status 0.
///
/// The handler only writes one byte to a non-blocking pipe (async-signal-safe); a full pipe drops the
/// byte, which is harmless because one unread byte already makes the read end readable. Installed once
/// per process, only by the commands that stream.
enum SignalInterrupt {
    /// The write end of the pipe, read by the handler.
    fileprivate static let writeEnd = Atomic<Int32>(-1)
    private static let readEnd = Mutex<Int32>(-1)

    /// Installs the handlers (first call) and returns the pipe's read end.
    ///
    /// - Throws: `.failure` when the pipe cannot be made.
    static func install(signals: [Int32] = [SIGINT, SIGTERM]) throws(CLIError) -> Int32 {
        let existing = readEnd.withLock { $0 }
        if existing >= 0 { return existing }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw CLIError.system("cannot create the signal pipe", errno: errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        writeEnd.store(fds[1], ordering: .releasing)
        readEnd.withLock { $0 = fds[0] }
        for s in signals { _ = signal(s, handleInterruptSignal) }
        return fds[0]
    }
}

/// The signal handler: one byte into the pipe, errno preserved.
private func handleInterruptSignal(_ signal: Int32) {
    let saved = errno
    let fd = SignalInterrupt.writeEnd.load(ordering: .acquiring)
    if fd >= 0 {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }
    errno = saved
}
