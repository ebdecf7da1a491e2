/// The sending side of the application-context channel, as a pure state machine: versions, what the
/// peer holds, what is in flight, and whether an acknowledgement can be believed.
///
/// Last value wins: at most one context frame is in flight per link; a burst of updates costs one frame
/// per round trip. A contextAck (or a hello's `resume.contextVersion` for this store) of a version this
/// side never sent is a protocol violation: rejected, never applied.
struct ContextSender: Sendable, Hashable {
    enum Event: Sendable, Hashable {
        /// `updateApplicationContext` stored `version` (nil: identical to the last one, not stored).
        case updated(version: UInt64)
        /// The peer's hello says it holds `version` of this store's context (0 for another store's).
        case hello(holds: UInt64)
        /// A link became the one that carries the context: nothing is in flight on it yet.
        case linkChanged
        /// The pump may send: the store's newest version is `newest`.
        case readyToSend(newest: UInt64)
        /// A `contextAck` frame.
        case ack(version: UInt64)
    }

    enum Action: Sendable, Hashable {
        /// Record durably that the peer holds `version`.
        case recordHeld(version: UInt64)
        /// Send context `version` now.
        case send(version: UInt64)
        /// Wait for the next change.
        case none
        /// A protocol violation: close the link, apply nothing.
        case reject(String)
    }

    /// Newest version stored as sent (the store's `sentContext`).
    private(set) var sentVersion: UInt64
    /// Newest version the peer has acknowledged.
    private(set) var peerAck: UInt64
    /// Newest version written to the current link (0: none yet on this link).
    private(set) var inFlight: UInt64 = 0
    /// Highest version ever written to any link: no acknowledgement may exceed it.
    private(set) var highestSent: UInt64

    init(sentVersion: UInt64, peerAck: UInt64) {
        self.sentVersion = sentVersion
        self.peerAck = peerAck
        self.highestSent = sentVersion
    }

    /// Whether the pump has something to send: the peer lacks the newest context and nothing newer
    /// than what it acknowledged is in flight.
    var wantsToSend: Bool { sentVersion > peerAck && inFlight <= peerAck }

    /// Why a peer claiming to hold `version` of this side's context must be refused, or nil.
    func violation(holding version: UInt64) -> String? {
        let bound = max(sentVersion, highestSent)
        guard version > bound else { return nil }
        return "the peer holds context version \(version), but only \(bound) was ever sent"
    }

    mutating func event(_ event: Event) -> Action {
        switch event {
        case .updated(let version):
            sentVersion = max(sentVersion, version)
            return .none
        case .hello(let held):
            if let violation = violation(holding: held) { return .reject(violation) }
            if held >= sentVersion { return hold(sentVersion) }
            // A peer that lost its store (or never got it) is owed the context again.
            peerAck = min(peerAck, held)
            return .none
        case .linkChanged:
            inFlight = 0
            return .none
        case .readyToSend(let newest):
            sentVersion = max(sentVersion, newest)
            guard newest > peerAck, inFlight <= peerAck else { return .none }
            inFlight = newest
            highestSent = max(highestSent, newest)
            return .send(version: newest)
        case .ack(let version):
            if let violation = violation(holding: version) { return .reject(violation) }
            return hold(version)
        }
    }

    private mutating func hold(_ version: UInt64) -> Action {
        guard version > peerAck else { return .none }
        peerAck = version
        return .recordHeld(version: version)
    }
}
