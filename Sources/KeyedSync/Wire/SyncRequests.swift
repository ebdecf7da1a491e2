import WatchConnection

/// A snapshot of one app's published keys, sent as the application context (latest wins) and
/// confirmed by the peer's empty response, so the sender knows which revisions arrived.
public struct SyncPush: WatchRequest {
    public typealias Response = VoidResponse
    public static var requestType: String { "KeyedSync.Push" }
    /// Every published entry of the sender, by key.
    public var entries: [SyncEntry]

    public init(entries: [SyncEntry]) {
        self.entries = entries
    }
}

/// The watch's half of the launch-order-safe handshake: "send me your keys". Answered with the
/// phone's snapshot; the phone also pushes it as its context, so the values arrive even when the
/// answer itself cannot (the watch stopped waiting, or it went by userInfo while the phone was off).
public struct SyncSnapshotRequest: WatchRequest {
    public typealias Response = SyncPush
    public static var requestType: String { "KeyedSync.SnapshotRequest" }

    public init() {}
}
