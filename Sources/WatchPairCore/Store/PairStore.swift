import Foundation
import GRDB
import Logging
import Synchronization
import WatchPairWire

/// The durable store of one daemon (one side of the pair): userInfo outbox and inbox and dedupe state for
/// the peer, in one SQLite file in WAL mode; the sent and received application contexts (``contexts``)
/// and file transfers (``files``) are in the same file.
///
/// Every mutating call returns only after its transaction has committed: with `.power` durability that
/// includes an fsync of the WAL (`synchronous=FULL`), with `.process` the data is in the WAL (survives a
/// process crash); a few bookkeeping writes are `.relaxed` (`StoreDatabase.CommitSync`). The transactions
/// themselves, and the queue lengths that follow committed ones only, are ``StoreDatabase``'s. The userInfo
/// queues' writes (`enqueue`, `receive`, `consumeInbox`, `acknowledge`, `markFinishedReported`) go to one
/// writer (``StoreWriter``, on a thread of its own): whatever was
/// asked while a commit ran is the next transaction (at most
/// `maxBatchSize` requests), fsynced once if any of it must be. Other writes are one transaction each. Reads never load a whole queue:
/// they page (`outstanding(after:limit:)`, `inbox(after:limit:)`). The on-disk format and what survives what
/// are in docs/Store.md and at the top of StoreSchema.swift.
///
/// Thread-safe; every method may be called concurrently. After `close()` every call throws `.ioFailure`.
public final class PairStore: Sendable {
    /// The most userInfo write requests one commit of the writer holds; more wait for the next commit.
    public static let maxBatchSize = 512

    /// Counters kept by the store itself; commits are counted by ``database``.
    struct Counters: Sendable {
        var enqueued = 0
        var received = 0
        /// The highest outbox seq ever assigned, committed or being committed: no peer can hold more.
        var highestSeq: UInt64
        /// Makes the ids of transfers enqueued without one (``enqueue(payload:complication:)``).
        var transferIds = TransferIdGenerator()
    }

    /// The SQLite file and its transactions.
    let database: StoreDatabase
    let configuration: StoreConfiguration
    let logger: Logger
    /// The database file.
    var path: String { database.path }
    let counters: Mutex<Counters>
    /// The newest inbox and outbox rows, for the readers that follow them (``StoreTail``).
    let tails = Mutex(StoreTails())
    /// Commits the userInfo queues' writes in batches (``StoreWriter``).
    let writer: StoreWriter<BatchRequest, BatchResponse>

    /// This store's random identity, created with the file and never changed; the peer keys its dedupe
    /// state by it, so a recreated store starts again at seq 1 without being mistaken for a duplicate.
    public let storeId: UUID
    /// The file transfers' queue and partial files, in the same database, with their spool beside it.
    public let files: FileStore
    /// The sent and received application contexts, in the same database.
    public let contexts: ContextStore

    init(
        database: StoreDatabase, configuration: StoreConfiguration, storeId: UUID, highestSeq: UInt64, logger: Logger,
        loops: CurrentEventLoop? = nil
    ) {
        self.database = database
        self.writer = StoreWriter(maxBatchSize: Self.maxBatchSize, name: "store writer", loops: loops)
        self.files = FileStore(database: database, configuration: configuration)
        self.contexts = ContextStore(database: database, logger: logger)
        self.counters = Mutex(Counters(highestSeq: highestSeq))
        self.configuration = configuration
        self.storeId = storeId
        self.logger = logger
    }

    deinit { writer.stop() }

    /// Counters since this store was opened.
    public var statistics: StoreStatistics {
        let (enqueued, received) = counters.withLock { ($0.enqueued, $0.received) }
        return StoreStatistics(commits: database.commits, reads: database.reads, enqueued: enqueued, received: received)
    }

    /// Closes the database. Waits for a commit already running, then checkpoints the WAL into the database
    /// file and truncates it (best effort: data already committed is safe either way); calls made afterwards
    /// throw `.ioFailure`. Idempotent.
    public func close() async throws {
        try await database.close()
    }

    /// Bytes used by the database files (database + WAL), for benchmarks.
    public func diskUsage() -> Int { database.diskUsage() }

    /// The queue lengths as of the last commit.
    var queueLengths: QueueLengths { database.queueLengths }

    /// The highest outbox seq this store has assigned (an upper bound: it may belong to a transaction
    /// still committing). An acknowledgement beyond it acknowledges something never sent.
    public var highestAssignedSeq: UInt64 { counters.withLock { $0.highestSeq } }

    /// Raises ``highestAssignedSeq``; called inside the transaction, before its commit, so a transfer
    /// can never be read (and sent, and acknowledged) before the bound covers it.
    func noteAssigned(upTo seq: UInt64) {
        counters.withLock { $0.highestSeq = max($0.highestSeq, seq) }
    }
}
