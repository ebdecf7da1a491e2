import Foundation

/// What one app holds of one key: persisted, so `lastSyncTime` and `needSync` survive restarts.
public struct SyncKeyRecord: Sendable, Hashable, Codable {
    /// How the key is synced; nil for a key the peer sent that this app has not registered (kept, so
    /// that registering it later finds the value).
    public var options: SyncKeyOptions?
    /// The value's JSON, and its revision (the highest this app has seen for the key).
    public var value: Data?
    public var revision: SyncRevision?
    /// What snapshots send for this key: the current value once it may go (at once for automatic keys,
    /// when the app asks for manual ones); an older value stays here while a newer one may not go.
    public var published: SyncEntry?
    /// The current value has not been confirmed by the peer.
    public var needSync = false
    /// When the peer last confirmed this key or sent it, in seconds since 1970.
    public var lastSyncTime: Double?
    /// Why the current value is not sent, if it is not.
    public var blocked: SyncBlock?
    /// The newest revision the peer sent (nil in ledgers written before it was kept): what a key the
    /// peer owns orders received values by, since this app's own changes of it stay local.
    public var peerRevision: SyncRevision?

    public init(options: SyncKeyOptions? = nil) {
        self.options = options
    }
}
