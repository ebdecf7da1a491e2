import Foundation
import GRDB
import Logging
import Synchronization
import WatchPairWire

/// The durable store of one daemon (one side of the pair): userInfo outbox and inbox, dedupe state for
/// the peer, and the sent and received application contexts, in one SQLite file in WAL mode.
///
/// Every mutating call returns only after its transaction has committed: with `.power` durability that
/// includes an fsync of the WAL (`synchronous=FULL`), with `.process` the data is in the WAL (survives a
/// process crash); a few bookkeeping writes are `.relaxed` (``CommitSync``). `enqueue`, `receive` and
/// `consumeInbox` use group commit: concurrent calls share one transaction (at most `maxBatchSize` requests
/// each). Other writes are one transaction each. Reads never load a whole queue:
/// they page (`outstanding(after:limit:)`, `inbox(after:limit:)`). The on-disk format and what survives what
/// are in docs/Store.md and at the top of StoreSchema.swift.
///
/// Thread-safe; every method may be called concurrently. After `close()` every call throws `.ioFailure`.
public final class PairStore: Sendable {
    /// The most `enqueue`/`receive` requests one group commit writes; more wait for the next commit.
    public static let maxBatchSize = 512

    struct Counters: Sendable {
        var statistics = StoreStatistics()
        var closed = false
        var queueLengths: QueueLengths
        /// The highest outbox seq ever assigned, committed or being committed: no peer can hold more.
        var highestSeq: UInt64
    }

    let pool: DatabasePool
    let configuration: StoreConfiguration
    let logger: Logger
    /// The database file.
    let path: String
    let counters: Mutex<Counters>
    let committer = GroupCommitter<BatchRequest, BatchResponse>(maxBatchSize: PairStore.maxBatchSize)

    /// This store's random identity, created with the file and never changed; the peer keys its dedupe
    /// state by it, so a recreated store starts again at seq 1 without being mistaken for a duplicate.
    public let storeId: UUID

    init(
        pool: DatabasePool, configuration: StoreConfiguration, storeId: UUID, queueLengths: QueueLengths,
        highestSeq: UInt64, logger: Logger
    ) {
        self.counters = Mutex(Counters(queueLengths: queueLengths, highestSeq: highestSeq))
        self.pool = pool
        self.configuration = configuration
        self.storeId = storeId
        self.logger = logger
        self.path = configuration.databasePath
    }

    /// Counters since this store was opened.
    public var statistics: StoreStatistics { counters.withLock { $0.statistics } }

    /// Closes the database. Waits for a commit already running, then checkpoints the WAL into the database
    /// file and truncates it (best effort: data already committed is safe either way); calls made afterwards
    /// throw `.ioFailure`. Idempotent.
    public func close() async throws {
        let alreadyClosed = counters.withLock { counters in
            defer { counters.closed = true }
            return counters.closed
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
    public func diskUsage() -> Int {
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
        try checkOpen()
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
        _ what: String, sync: CommitSync = .durable, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(StoreError) -> T {
        try await write(what, sync: sync) { database, _ in try body(database) }
    }

    /// As `write(_:sync:_:)`, for a transaction that changes the queues: `body` gets the queue lengths as
    /// of the last commit and updates them with its rows. The new lengths replace the cached ones only
    /// once the COMMIT has succeeded, on the writer, before the next transaction starts.
    ///
    /// Not `Database.afterNextTransaction`: when SQLite rolls a transaction back by itself because its
    /// COMMIT failed (SQLITE_FULL, an I/O error), GRDB tells no transaction observer, so such a callback
    /// stayed registered and ran at the next commit, applying the failed transaction's counts (the inbox
    /// count drifted after a full disk, both up and below zero).
    func write<T: Sendable>(
        _ what: String, sync: CommitSync = .durable,
        counting body: @escaping @Sendable (Database, inout QueueLengths) throws -> T
    ) async throws(StoreError) -> T {
        try checkOpen()
        // Under `.process` the connection already commits without fsync.
        let relax = sync == .relaxed && configuration.durability == .power
        let logger = self.logger
        let result: Result<(T, Bool), any Error> = await withCheckedContinuation { continuation in
            pool.asyncWriteWithoutTransaction { database in
                continuation.resume(returning: Result {
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
                    let before = self.queueLengths
                    var lengths = before
                    var outcome: (T, Bool)?
                    try database.inTransaction {
                        let changes = database.totalChangesCount
                        let value = try body(database, &lengths)
                        outcome = (value, database.totalChangesCount != changes)
                        return .commit
                    }
                    // Reached only when the COMMIT succeeded.
                    if lengths != before { self.counters.withLock { $0.queueLengths = lengths } }
                    guard let outcome else { preconditionFailure("a committed transaction produced no value") }
                    return outcome
                })
            }
        }
        switch result {
        case .success(let (value, changed)):
            if changed { counters.withLock { $0.statistics.commits += 1 } }
            return value
        case .failure(let error):
            let storeError = StoreError(error, attempting: what, path: path)
            logger.debug("store write failed", metadata: ["error": "\(storeError)"])
            throw storeError
        }
    }

    /// The queue lengths as of the last commit.
    var queueLengths: QueueLengths { counters.withLock { $0.queueLengths } }

    /// The highest outbox seq this store has assigned (an upper bound: it may belong to a transaction
    /// still committing). An acknowledgement beyond it acknowledges something never sent.
    public var highestAssignedSeq: UInt64 { counters.withLock { $0.highestSeq } }

    /// Raises ``highestAssignedSeq``; called inside the transaction, before its commit, so a transfer
    /// can never be read (and sent, and acknowledged) before the bound covers it.
    func noteAssigned(upTo seq: UInt64) {
        counters.withLock { $0.highestSeq = max($0.highestSeq, seq) }
    }

    func checkOpen() throws(StoreError) {
        if counters.withLock({ $0.closed }) { throw .closed(path: path) }
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
