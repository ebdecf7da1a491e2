/// Which session channel carries a request, and which one takes over when it cannot.
///
/// The decision for each case, reachability and `DeliveryMode` is `DeliveryPlanner`'s (a pure table).
public enum DeliveryStrategy: String, Sendable, Hashable, Codable, CaseIterable {
    /// A live message; when the peer is unreachable or the message fails for good, a durable
    /// userInfo transfer. The default.
    case messageWithUserInfoFallback
    /// A live message; otherwise the application context (only the newest value arrives).
    case messageWithContextFallback
    /// A live message only.
    case messageOnly
    /// A userInfo transfer only: durable and ordered, delivered whenever the peer runs.
    case userInfoOnly
    /// The application context only: latest value wins.
    case contextOnly

    /// The channel tried first.
    public var primaryMethod: DeliveryMethod {
        switch self {
        case .messageWithUserInfoFallback, .messageWithContextFallback, .messageOnly: .message
        case .userInfoOnly: .userInfo
        case .contextOnly: .context
        }
    }

    /// The channel that takes over from a message, if any.
    public var fallbackMethod: DeliveryMethod? {
        switch self {
        case .messageWithUserInfoFallback: .userInfo
        case .messageWithContextFallback: .context
        case .messageOnly, .userInfoOnly, .contextOnly: nil
        }
    }

    /// Whether a fallback channel exists.
    public var hasFallback: Bool { fallbackMethod != nil }
}

/// A `WCSession` channel.
public enum DeliveryMethod: String, Sendable, Hashable, Codable, CaseIterable {
    /// `sendMessage`: live, needs a reachable peer, answers directly.
    case message
    /// `transferUserInfo`: durable, ordered, delivered when the peer runs.
    case userInfo
    /// `updateApplicationContext`: latest value only.
    case context
}

/// What to do with a request that cannot go live now.
public enum DeliveryMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Keep it: hand it to a durable fallback channel, or persist it in the request queue until the
    /// peer is reachable (the default).
    case queued
    /// Fail fast with `WatchConnectionError.notReachable` (or `.notActivated`).
    case immediate

    /// Whether the peer must be reachable now.
    public var requiresImmediateReachability: Bool { self == .immediate }
}
