import Glibc

/// `poll(2)` over a few control connections.
enum Poller {
    /// Waits until one of `connections` has something to read (or was closed), at most until `deadline`.
    /// Returns false when the deadline passed first.
    static func waitReadable(_ connections: [BenchConnection], deadline: UInt64) throws(BenchError) -> Bool {
        try !readable(connections, deadline: deadline).isEmpty
    }

    /// The indices of `connections` that are readable, waiting at most until `deadline` (empty: timed out).
    /// A connection holding a complete line it has already read counts as readable at once: `poll` cannot
    /// see it (a cold launch's first transfer, delivered with the stream's `ok`, waited for the deadline).
    static func readable(_ connections: [BenchConnection], deadline: UInt64) throws(BenchError) -> [Int] {
        let buffered = connections.indices.filter { connections[$0].hasBufferedLine }
        guard buffered.isEmpty else { return buffered }
        var fds = connections.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        while true {
            let rc = poll(&fds, nfds_t(fds.count), Monotonic.pollTimeout(until: deadline))
            if rc < 0 {
                if errno == EINTR { continue }
                throw BenchError.system("poll()", errno: errno)
            }
            if rc == 0 {
                if Monotonic.now() >= deadline { return [] }
                continue
            }
            return fds.indices.filter { fds[$0].revents != 0 }
        }
    }
}
