import WatchPairControlClient

/// `poll(2)` over a few control connections, with wcbench's deadlines (``ControlClientConnection/readable(_:interrupt:until:)``).
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
        do {
            return try ControlClientConnection.readable(connections.lazy.map(\.core), until: MonotonicDeadline(deadline))
        } catch {
            throw BenchError(error, path: "")
        }
    }
}
