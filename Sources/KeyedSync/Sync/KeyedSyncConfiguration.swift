import Foundation

/// Keyed sync's settings.
public struct KeyedSyncConfiguration: Sendable {
    /// Where the ledger (`keyedsync.json`: values, revisions, `lastSyncTime`, `needSync`) is kept; nil:
    /// in memory only.
    public var storageDirectory: URL?
    /// The largest value, in bytes of JSON, that `.automaticSmall` sends: 16 KiB, a quarter of the layer's
    /// 64 KiB payload limit, so a snapshot of several small keys still fits one context.
    public var maxAutoSyncSize = 16_384
    /// How long a pushed snapshot waits for the peer's confirmation before its keys stay `needSync`.
    public var confirmationTimeout: Duration = .seconds(10)
    /// How long after an unconfirmed push, while the peer stays reachable, its keys are pushed again;
    /// each further failure doubles the wait, up to ``maxRetryDelay``.
    public var retryDelay: Duration = .seconds(2)
    /// The longest wait between pushes of keys that stay unconfirmed while the peer is reachable.
    public var maxRetryDelay: Duration = .seconds(300)
    /// How many events each `events` subscriber buffers (the newest are kept). One change or received
    /// snapshot reports an event per key in it, all at once: a snapshot fits one 262,144-byte context at
    /// 60 bytes or more per key, so 8,192 holds the events of any one, with room for a reader that is a
    /// few snapshots behind. (256 lost a third of one launch's 300 events in the daemon.)
    public var eventBuffer = 8_192
    /// The wall time at the clock's start, for `lastSyncTime` (tests pin it).
    public var wallClockOrigin = Date()

    public init(storageDirectory: URL? = nil) {
        self.storageDirectory = storageDirectory
    }
}

/// Why a keyed-sync call failed.
public enum KeyedSyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key was never registered with `register(_:availability:policy:)`.
    case keyNotRegistered(String)
    /// The value could not be encoded or decoded as JSON.
    case coding(key: String, description: String)
    /// The ledger could not be written; the change is held in memory and written with the next one.
    case storageFailed(String)

    public var description: String {
        switch self {
        case .keyNotRegistered(let key): "key '\(key)' is not registered"
        case .coding(let key, let description): "key '\(key)': \(description)"
        case .storageFailed(let description): "the sync ledger could not be written: \(description)"
        }
    }
}
