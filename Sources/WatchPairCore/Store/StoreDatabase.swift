import Foundation
import GRDB
import Logging
import Synchronization

/// The SQLite file of one store and its transactions: a GRDB `DatabasePool` in WAL mode (one writer
/// connection, up to 4 readers), with the queue lengths and commit count that follow committed
/// transactions only. ``PairStore`` owns one and decides what each transaction writes.
///
/// Every write returns only after its transaction has committed: with `.power` durability that includes an
/// fsync of the WAL (`synchronous=FULL`), with `.process` the data is in the WAL (survives a process crash);
/// a `.relaxed` write (``CommitSync``) skips its own fsync. After `close()` every call throws `.ioFailure`.
final class StoreDatabase: Sendable {
    /// What changes only when a transaction commits, and whether the file is closed.
    struct State: Sendable {
        var closed = false
        var queueLengths: QueueLengths
        /// Write transactions that changed rows (``StoreStatistics/commits``).
        var commits = 0
        /// Read transactions (``StoreStatistics/reads``).
        var reads = 0
    }

    let pool: DatabasePool
    let durability: Durability
    let logger: Logger
    /// The database file.
    let path: String
    let state: Mutex<State>

    init(pool: DatabasePool, path: String, durability: Durability, queueLengths: QueueLengths, logger: Logger) {
        self.pool = pool
        self.path = path
        self.durability = durability
        self.logger = logger
        self.state = Mutex(State(queueLengths: queueLengths))
    }

    /// The queue lengths as of the last commit.
    var queueLengths: QueueLengths { state.withLock { $0.queueLengths } }

    /// Write transactions that changed rows since the file was opened.
    var commits: Int { state.withLock { $0.commits } }

    /// Read transactions since the file was opened.
    var reads: Int { state.withLock { $0.reads } }

    func checkOpen() throws(StoreError) {
        if state.withLock({ $0.closed }) { throw .closed(path: path) }
    }

    /// Closes the database. Waits for a commit already running, then checkpoints the WAL into the database
    /// file and truncates it (best effort: data already committed is safe either way); calls made afterwards
    /// throw `.ioFailure`. Idempotent.
    func close() async throws(StoreError) {
        let alreadyClosed = state.withLock { state in
            defer { state.closed = true }
            return state.closed
        }
        if alreadyClosed { return }
        do {
            // GRDB closes the writer before the read-only readers, and a read-only connection cannot
            // checkpoint, so without this the last commits would stay in the WAL file after close.
            do {
                _ = try await pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            } catch {
                logger.debug("WAL checkpoint at close failed", metadata: ["error": "\(error)"])
            }
            try pool.close()
        } catch {
            throw StoreError(error, attempting: "closing the database", path: path)
        }
        logger.debug("store closed", metadata: ["path": "\(path)"])
    }

    /// Bytes used by the database files (database + WAL), for benchmarks.
    func diskUsage() -> Int {
        [path, path + "-wal"].reduce(0) { total, file in
            var info = stat()
            return stat(file, &info) == 0 ? total + Int(info.st_size) : total
        }
    }

    // MARK: - Transactions

    /// Runs `body` in a read-only snapshot on a reader connection.
    func read<T: Sendable>(
        _ what: String, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(StoreError) -> T {
        try state.withLock { state throws(StoreError) in
            if state.closed { throw .closed(path: path) }
            state.reads += 1
        }
        let result: Result<T, any Error> = await withCheckedContinuation { continuation in
            pool.asyncRead { database in
                continuation.resume(returning: Result { try body(database.get()) })
            }
        }
        return try result.mapError { StoreError($0, attempting: what, path: self.path) }.get()
    }

    /// How a write's commit reaches the disk.
    enum CommitSync: Sendable {
        /// As `durability` says: fsynced before the call returns under `.power`.
        case durable
        /// Not fsynced by its own commit under any durability: for bookkeeping whose loss in a power failure
        /// only repeats work that is idempotent at the peer (an acknowledgement the sender forgets makes it
        /// resend, and the receiver drops the duplicate by seq). A process crash never loses it (it is in the
        /// WAL), and the WAL is sequential, so the next durable commit makes it durable too.
        case relaxed
    }

    /// Runs `body` in one write transaction and returns after it committed (durably, per `sync` and
    /// `durability`). Counts a commit when the transaction changed rows. Deliberately not cancellable: a write
    /// the caller started either commits or fails as a whole.
    func write<T: Sendable>(
        _ what: String, sync: CommitSync = .durable, _ body: @escaping @Sendable (Database) throws -> T,
        afterCommit: (@Sendable (T) -> Void)? = nil
    ) async throws(StoreError) -> T {
        try await write(what, sync: sync, counting: { database, _ in try body(database) }, afterCommit: afterCommit)
    }

    /// As `write(_:sync:_:)`, for a transaction that changes the queues: `body` gets the queue lengths as
    /// of the last commit and updates them with its rows. The new lengths replace the cached ones only
    /// once the COMMIT has succeeded, on the writer, before the next transaction starts; so does
    /// `afterCommit`, with `body`'s value (the store's ``StoreTail``s follow the commits in their order).
    ///
    /// Not `Database.afterNextTransaction`: when SQLite rolls a transaction back by itself because its
    /// COMMIT failed (SQLITE_FULL, an I/O error), GRDB tells no transaction observer, so such a callback
    /// stayed registered and ran at the next commit, applying the failed transaction's counts (the inbox
    /// count drifted after a full disk, both up and below zero).
    func write<T: Sendable>(
        _ what: String, sync: CommitSync = .durable,
        counting body: @escaping @Sendable (Database, inout QueueLengths) throws -> T,
        afterCommit: (@Sendable (T) -> Void)? = nil
    ) async throws(StoreError) -> T {
        try checkOpen()
        let result: Result<(T, Bool), any Error> = await withCheckedContinuation { continuation in
            pool.asyncWriteWithoutTransaction { database in
                continuation.resume(returning: Result {
                    try self.transaction(database, sync: sync, body, afterCommit: afterCommit)
                })
            }
        }
        return try finished(result, what)
    }

    /// As `write(_:sync:counting:afterCommit:)`, blocking the calling thread instead of suspending: for the
    /// store's writer (``StoreWriter``: its own thread, or the loop of a request that came alone). The
    /// transaction runs on the calling thread when GRDB's writer is idle (a `DispatchQueue.sync`), so the
    /// commit costs no thread hop; it waits for a write already running (files, contexts) otherwise.
    func writeNow<T: Sendable>(
        _ what: String, sync: CommitSync = .durable,
        counting body: (Database, inout QueueLengths) throws -> T,
        afterCommit: ((T) -> Void)? = nil
    ) throws(StoreError) -> T {
        try checkOpen()
        let result = Result { try pool.writeWithoutTransaction { try transaction($0, sync: sync, body, afterCommit: afterCommit) } }
        return try finished(result, what)
    }

    /// One write transaction on the writer connection, with the pragma switch a relaxed commit needs; the
    /// queue lengths and `afterCommit` follow only a COMMIT that succeeded. Returns `body`'s value and
    /// whether the transaction changed rows.
    private func transaction<T>(
        _ database: Database, sync: CommitSync, _ body: (Database, inout QueueLengths) throws -> T,
        afterCommit: ((T) -> Void)?
    ) throws -> (T, Bool) {
        // Under `.process` the connection already commits without fsync.
        let relax = sync == .relaxed && durability == .power
        // Cached: preparing the two pragmas on every relaxed write showed in the profile.
        if relax { try database.cachedStatement(sql: "PRAGMA synchronous = NORMAL").execute() }
        defer {
            if relax {
                do {
                    try database.cachedStatement(sql: "PRAGMA synchronous = FULL").execute()
                } catch {
                    // Cannot happen short of a broken connection; say so loudly if it does.
                    logger.error("restoring synchronous=FULL failed", metadata: ["error": "\(error)"])
                }
            }
        }
        let before = queueLengths
        var lengths = before
        // BEGIN and COMMIT as cached statements: GRDB's `inTransaction` builds and parses both from SQL
        // text on every transaction, a cost a one-row commit paid in full (BENCHMARKS.md, "userInfo
        // throughput"). IMMEDIATE as GRDB's writer uses: the write lock is taken at BEGIN.
        try database.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
        let outcome: (T, Bool)
        do {
            let changes = database.totalChangesCount
            let value = try body(database, &lengths)
            outcome = (value, database.totalChangesCount != changes)
            try database.cachedStatement(sql: "COMMIT TRANSACTION").execute()
        } catch {
            // SQLite may have rolled back by itself (a full disk, an I/O error): `rollback()` then does
            // nothing. The first error is the one reported.
            try? database.rollback()
            throw error
        }
        // Reached only when the COMMIT succeeded.
        if lengths != before { state.withLock { $0.queueLengths = lengths } }
        afterCommit?(outcome.0)
        return outcome
    }

    /// A transaction's result for its caller: counts the commit, or logs and maps the failure.
    private func finished<T>(_ result: Result<(T, Bool), any Error>, _ what: String) throws(StoreError) -> T {
        switch result {
        case .success(let (value, changed)):
            if changed { state.withLock { $0.commits += 1 } }
            return value
        case .failure(let error):
            let storeError = StoreError(error, attempting: what, path: path)
            logger.debug("store write failed", metadata: ["error": "\(storeError)"])
            throw storeError
        }
    }

    /// The writer connection's value of `PRAGMA <name>` (for tests: `synchronous`, `journal_mode`).
    func writerPragma(_ name: String) async throws(StoreError) -> String? {
        try checkOpen()
        do {
            return try await pool.writeWithoutTransaction { database in
                try String.fetchOne(database, sql: "PRAGMA \(name)")
            }
        } catch {
            throw StoreError(error, attempting: "reading PRAGMA \(name)", path: path)
        }
    }
}
