import Glibc
import WatchPairControlClient

/// Waits for a file to appear without polling: an inotify watch on the directory that should hold it
/// (or, while that is missing, on its nearest existing ancestor), and a retry on each change there.
///
/// Daemons bind their control socket under a temporary name, listen, then link it into place, so one
/// `IN_CREATE` (or `IN_MOVED_TO`) means "the file is there and answers". A stale socket file left by a
/// killed daemon refuses connections; the next daemon replaces it, which is again an event.
enum PathAppearance {
    /// What inotify reports on the watched directory: entries created, moved in, or changed, and the
    /// directory itself going away (then the nearest ancestor is watched instead).
    private static let events = UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

    /// Calls `attempt` until it returns a value, again after each change in the directory of `path`.
    ///
    /// - Returns: the first value `attempt` returns, or nil when `deadline` (nil: none) passes first.
    /// - Throws: whatever `attempt` throws; `.failure` when inotify cannot be set up.
    static func wait<Value>(
        for path: String, deadline: ContinuousClock.Instant?, attempt: () throws(CLIError) -> Value?
    ) throws(CLIError) -> Value? {
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw CLIError.system("cannot watch for \(path) (inotify_init1)", errno: errno) }
        defer { _ = close(fd) }
        while true {
            // Watch first, then try: a file that appears in between still wakes the poll below.
            let directory = nearestExistingDirectory(of: path)
            guard inotify_add_watch(fd, directory, events) >= 0 else {
                throw CLIError.system("cannot watch \(directory) for \(path) (inotify_add_watch)", errno: errno)
            }
            if let value = try attempt() { return value }
            guard try waitForEvent(fd, deadline: deadline, path: path) else { return nil }
        }
    }

    /// Blocks until the inotify descriptor has events (and drains them); false when `deadline` passed.
    private static func waitForEvent(_ fd: Int32, deadline: ContinuousClock.Instant?, path: String) throws(CLIError) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let timeout = deadline?.pollTimeout ?? -1
            if timeout == 0 { return false }
            let ready = poll(&descriptor, 1, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                throw CLIError.system("cannot wait for \(path) (poll)", errno: errno)
            }
            if ready == 0 { continue }  // Re-checks the deadline.
            var buffer = [UInt8](repeating: 0, count: 4096)
            while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress!, $0.count) }) > 0 {}
            return true
        }
    }

    /// The directory that should hold `path`, or its nearest ancestor that exists.
    static func nearestExistingDirectory(of path: String) -> String {
        var directory = parent(of: path)
        while access(directory, F_OK) != 0, directory != "/", directory != "." {
            directory = parent(of: directory)
        }
        return directory
    }

    /// `dirname(3)` without touching its argument: `/a/b` → `/a`, `b` → `.`, `/b` → `/`.
    static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let head = trimmed[..<slash]
        return head.isEmpty ? "/" : String(head)
    }
}
