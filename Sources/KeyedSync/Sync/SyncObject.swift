import Foundation

/// A typed view of one registered key (the SyncObject registry pattern): its value, whether it still
/// needs a sync, when it last synced, and the values that arrive from the peer.
///
/// ```swift
/// let settings = sync.object("settings", as: Settings.self, policy: .manual)
/// try settings.set(Settings(units: .metric))
/// await settings.sync()
/// for await received in settings.updates { apply(received) }
/// ```
@MainActor
public final class SyncObject<T: Codable & Sendable> {
    /// The key.
    public let key: String
    let sync: KeyedSync

    init(key: String, sync: KeyedSync) {
        self.key = key
        self.sync = sync
    }

    /// The value held (set here or received), or nil; nil too when the held JSON no longer decodes as `T`.
    public var value: T? {
        try? sync.value(T.self, for: key)
    }

    /// Changes the value (see `KeyedSync.set(_:for:)`).
    public func set(_ value: T) throws(KeyedSyncError) {
        try sync.set(value, for: key)
    }

    /// Whether the value held has not been confirmed by the peer (persisted).
    public var needSync: Bool { sync.status(of: key)?.needSync ?? false }

    /// When the peer last confirmed or sent the value (persisted).
    public var lastSyncTime: Date? { sync.status(of: key)?.lastSyncTime }

    /// Sends the value if it needs a sync; returns once the peer confirmed it or the push failed.
    public func sync() async {
        await sync.syncIfNeeded(key)
    }

    /// Values received from the peer from now on (ones that do not decode as `T` are skipped).
    public var updates: AsyncCompactMapSequence<AsyncStream<Data>, T> {
        sync.updates(of: key).compactMap { try? JSONDecoder().decode(T.self, from: $0) }
    }
}
