import GRDB

/// The lengths of the two bounded queues, kept in memory so that the limit checks of every group commit
/// and `status` cost nothing, instead of a `COUNT(*)` over the whole backlog per batch (9% of phoned's CPU
/// in the profile, and growing with the queue). Counted once at open; afterwards changed only by committed
/// transactions (`StoreDatabase.write(_:sync:counting:)`).
struct QueueLengths: Sendable, Equatable {
    /// Outbox rows not yet acknowledged by the peer (`finished = 0`).
    var outstanding: Int
    /// Inbox rows not yet taken by the app.
    var inbox: Int
    /// Outgoing files not yet ended by the receiver nor cancelled (`file_outbox.outcome = 0`): whether a
    /// file waits for the peer, known without a query and never ahead of or behind the commits.
    var outstandingFiles: Int = 0

    /// Counts the queues in `database`.
    static func count(_ database: Database) throws -> QueueLengths {
        QueueLengths(
            outstanding: try Int.fetchOne(database, sql: "SELECT COUNT(*) FROM outbox WHERE finished = 0") ?? 0,
            inbox: try Int.fetchOne(database, sql: "SELECT COUNT(*) FROM inbox") ?? 0,
            outstandingFiles: try Int.fetchOne(database, sql: "SELECT COUNT(*) FROM file_outbox WHERE outcome = 0") ?? 0)
    }
}
