/// Counters of one open store, since it was opened (not persisted).
public struct StoreStatistics: Sendable, Hashable {
    /// Write transactions that changed rows: under `.power` each is one fsync of the WAL. Group commit makes
    /// this smaller than `enqueued + received` under concurrent load.
    public var commits: Int
    /// Read transactions (each one a hop to a reader connection and back): what the app-delivery loops
    /// and the outbox pump cost the store besides the writes.
    public var reads: Int
    /// userInfo transfers durably enqueued.
    public var enqueued: Int
    /// userInfo transfers durably received (duplicates and rejected ones excluded).
    public var received: Int

    /// Creates a value; the store creates the ones it returns.
    public init(commits: Int = 0, reads: Int = 0, enqueued: Int = 0, received: Int = 0) {
        self.commits = commits
        self.reads = reads
        self.enqueued = enqueued
        self.received = received
    }
}
