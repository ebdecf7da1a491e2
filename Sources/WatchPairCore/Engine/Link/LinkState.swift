/// The state of this side's link to the peer, as a value (`status` shows its `description`).
enum LinkState: Sendable, Hashable, CustomStringConvertible {
    /// A link has completed its handshake and carries traffic.
    case connected
    /// A connection is being made or handshaking.
    case connecting
    /// No link, and none is being made.
    case disconnected
    /// Reconnecting gave up (content stays queued until something changes).
    case timedOut

    /// The state from what the engine holds: an established link wins, then one being made.
    init(established: Bool, opening: Bool, gaveUp: Bool) {
        self = if established { .connected } else if opening { .connecting } else if gaveUp { .timedOut } else { .disconnected }
    }

    /// The strings of `EngineStatus.link`, unchanged for users: `connected`, `connecting`,
    /// `disconnected`, `disconnected: timed out`.
    var description: String {
        switch self {
        case .connected: "connected"
        case .connecting: "connecting"
        case .disconnected: "disconnected"
        case .timedOut: "disconnected: timed out"
        }
    }
}
