import WatchPairWire

/// Something that happened on an ``InMemoryNetwork``, reported by ``InMemoryNetwork/events()``.
public enum NetworkEvent: Sendable, Hashable, CustomStringConvertible {
    /// `Role`'s transport started serving: its link endpoint now accepts connections.
    case listening(Role)
    /// `Role`'s transport stopped serving (its `serve` call was cancelled).
    case stoppedListening(Role)
    /// `from`'s transport connected to `to`'s endpoint; the server end was handed to `to`'s handler.
    case connected(from: Role, to: Role)
    /// An open connection closed: one of its ends called `close()`, or the network dropped it.
    case closed
    /// `from`'s transport asked whether `to`'s app answers (``InMemoryTransport/peerAnswers()``), and it did or not.
    case asked(from: Role, to: Role, answered: Bool)

    /// A short form for test logs, e.g. `connected(phone→watch)`.
    public var description: String {
        switch self {
        case .listening(let role): "listening(\(role))"
        case .stoppedListening(let role): "stoppedListening(\(role))"
        case .connected(let from, let to): "connected(\(from)→\(to))"
        case .closed: "closed"
        case .asked(let from, let to, let answered): "asked(\(from)→\(to): \(answered ? "answered" : "no answer"))"
        }
    }
}
