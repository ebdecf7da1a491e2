/// How hard the store works to keep an accepted transfer.
///
/// Both levels keep every accepted write across `kill -9` of the daemon (SQLite's WAL is written before
/// the API returns); they differ in whether the WAL is also fsynced before the API returns.
public enum Durability: String, Sendable, Hashable, Codable, CaseIterable {
    /// fsync before the API returns (`synchronous=FULL`): survives power loss. Default.
    case power
    /// `synchronous=NORMAL`: survives kill -9 of the process, not power loss.
    case process
}

/// Where the durable store lives and how big its queues may grow.
///
/// Limits are checked inside the write transaction that would exceed them, so they hold exactly even
/// under concurrent callers. A limit of 0 (or less) means nothing fits.
public struct StoreConfiguration: Sendable {
    /// The state directory; the database is `<directory>/watchpair.sqlite` (plus `-wal` and `-shm`).
    /// Created with mode 0700 (with any missing parents) when absent; an existing directory is used as is.
    public var directory: String
    /// Whether an accepted write survives power loss (`.power`, default) or only a process crash.
    public var durability: Durability = .power
    /// The most outstanding (unacknowledged, not cancelled) userInfo transfers; one more enqueue throws
    /// `StoreError.Kind.outboxFull` (WCError 7015) and stores nothing.
    public var outboxLimit: Int = 10_000
    /// The most received userInfo transfers not yet taken by the app; `receive` stores the prefix that fits
    /// and leaves the rest unacknowledged so the sender resends them later.
    public var inboxLimit: Int = 10_000
    /// The most outstanding file transfers; one more `enqueueFile` throws `outboxFull` (7015) and stores
    /// nothing.
    public var fileOutboxLimit: Int = 1_000
    /// The most bytes of outstanding files the sender keeps copies of (default 8 GiB); a file that would
    /// pass it throws `outboxFull` (7015) before anything is copied. The disk filling up first is `diskFull`.
    public var fileSpoolLimit: UInt64 = 8 << 30

    /// Creates a configuration; see each property for its meaning and default.
    public init(
        directory: String, durability: Durability = .power, outboxLimit: Int = 10_000, inboxLimit: Int = 10_000,
        fileOutboxLimit: Int = 1_000, fileSpoolLimit: UInt64 = 8 << 30
    ) {
        self.directory = directory
        self.durability = durability
        self.outboxLimit = outboxLimit
        self.inboxLimit = inboxLimit
        self.fileOutboxLimit = fileOutboxLimit
        self.fileSpoolLimit = fileSpoolLimit
    }

    /// The file name of the database inside `directory`.
    public static let databaseFileName = "watchpair.sqlite"

    /// The full path of the database file: `<directory>/watchpair.sqlite`.
    public var databasePath: String {
        directory.hasSuffix("/") ? directory + Self.databaseFileName : directory + "/" + Self.databaseFileName
    }
}
