import Foundation

/// One key as `wcctl sync list` shows it.
public struct SyncKeyStatus: Sendable, Hashable {
    public var key: String
    /// How it is synced; nil for a key the peer sent that this app has not registered.
    public var options: SyncKeyOptions?
    /// The revision of the value held.
    public var revision: SyncRevision?
    /// When the peer last confirmed or sent it.
    public var lastSyncTime: Date?
    /// The value held has not been confirmed by the peer.
    public var needSync: Bool
    /// Why the value held is not sent, if it is not.
    public var blocked: SyncBlock?
    /// The value's JSON.
    public var value: Data?

    init(key: String, record: SyncKeyRecord) {
        self.key = key
        options = record.options
        revision = record.revision
        lastSyncTime = record.lastSyncTime.map { Date(timeIntervalSince1970: $0) }
        needSync = record.needSync
        blocked = record.blocked
        value = record.value
    }
}
