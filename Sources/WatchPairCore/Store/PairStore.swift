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
/// process crash). `enqueue` and `receive` use group commit: concurrent calls share one transaction (at most
/// `maxBatchSize` requests each). Other writes are one transaction each. Reads never load a whole queue:
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
    }

    let pool: DatabasePool
    let configuration: StoreConfiguration
    let logger: Logger
    /// The database file.
    let path: String
    let counters = Mutex(Counters())
    let committer = GroupCommitter<BatchRequest, BatchResponse>(maxBatchSize: PairStore.maxBatchSize)

    /// This store's random identity, created with the file and never changed; the peer keys its dedupe
    /// state by it, so a recreated store starts again at seq 1 without being mistaken for a duplicate.
    public let storeId: UUID

    init(pool: DatabasePool, configuration: StoreConfiguration, storeId: UUID, logger: Logger) {
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

    /// Runs `body` in one write transaction and returns after it committed (durably, per `durability`).
    /// Counts a commit when the transaction changed rows. Deliberately not cancellable: a write the caller
    /// started either commits or fails as a whole.
    func write<T: Sendable>(
        _ what: String, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(StoreError) -> T {
        try checkOpen()
        let result: Result<(T, Bool), any Error> = await withCheckedContinuation { continuation in
            pool.asyncWrite({ database in
                let before = database.totalChangesCount
                let value = try body(database)
                return (value, database.totalChangesCount != before)
            }, completion: { _, result in
                continuation.resume(returning: result)
            })
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

    private func checkOpen() throws(StoreError) {
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
