/// Which app a key lives in, and whether it crosses to the other (docs/KeyedSync.md).
public enum SyncAvailability: String, Sendable, Hashable, Codable, CaseIterable {
    /// Both apps hold it, and either may change it; changes cross both ways.
    case all
    /// Only the phone app holds it; never synced.
    case phoneOnly
    /// Only the watch app holds it; never synced.
    case watchOnly
    /// The phone app owns it and syncs it to the watch; the watch's own changes stay local.
    case phoneWithWatchSync
}

/// When a key's changes are sent (docs/KeyedSync.md).
public enum SyncPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Never sent.
    case never
    /// Sent when the app asks (`syncIfNeeded`, `SyncObject.sync()`, a snapshot).
    case manual
    /// Sent on every change, while the value's size is within `maxAutoSyncSize`.
    case automaticSmall
}

/// Which app this is.
public enum SyncSide: String, Sendable, Hashable, Codable, CaseIterable {
    case phone
    case watch

    /// The other app.
    public var peer: SyncSide { self == .phone ? .watch : .phone }
}

/// How a registered key is synced.
public struct SyncKeyOptions: Sendable, Hashable, Codable {
    /// Which app holds the key, and which way it crosses.
    public var availability: SyncAvailability
    /// When its changes are sent.
    public var policy: SyncPolicy

    /// A key's options; by default held by both apps and sent on every small change.
    public init(availability: SyncAvailability = .all, policy: SyncPolicy = .automaticSmall) {
        self.availability = availability
        self.policy = policy
    }
}
