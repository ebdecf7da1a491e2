/// A snapshot of what the connection can do now.
public struct ConnectionStatus: Sendable, Hashable {
    /// The session is activated.
    public let isActivated: Bool
    /// The counterpart app is reachable for live messages.
    public let isReachable: Bool
    /// The counterpart app is installed.
    public let isCounterpartAppInstalled: Bool

    /// A snapshot.
    public init(isActivated: Bool, isReachable: Bool, isCounterpartAppInstalled: Bool) {
        self.isActivated = isActivated
        self.isReachable = isReachable
        self.isCounterpartAppInstalled = isCounterpartAppInstalled
    }

    /// Live messages can be sent: activated and reachable.
    public var canSendMessages: Bool { isActivated && isReachable }
    /// userInfo and context transfers can be queued: activated.
    public var canUseBackgroundTransfers: Bool { isActivated }
}

/// Whether the connection works to stay connected.
public enum ConnectionMode: String, Sendable, Hashable, CaseIterable {
    /// Queued requests flush as soon as the peer is reachable.
    case active
    /// Requests go when sent; the queue flushes only on `connect()` or `attemptRecovery()` (the default).
    case passive
}
