import WatchConnection

/// When an unconfirmed snapshot is pushed again while the peer stays reachable: a pure machine.
///
/// A push whose confirmation does not come in time (a slow peer, a lost response) leaves its keys
/// `needSync`. Activation and each return of reachability push them again, but a peer that stays
/// reachable gives neither, so the keys would wait for the next app launch. This machine arms one
/// timer per failure, with exponential backoff without jitter (one app, one peer: nothing to spread),
/// and only while the peer is reachable; a confirmation or a change of reachability ends the series.
public struct PushRetry: Sendable, Hashable {
    /// What happened.
    public enum Event: Sendable, Hashable {
        /// The newest push was confirmed by the peer.
        case confirmed
        /// The newest push was not confirmed (timed out or failed).
        case unconfirmed
        /// The peer became reachable (`true`) or not.
        case reachability(Bool)
        /// The armed timer fired.
        case timerFired
    }

    /// What to do.
    public enum Action: Sendable, Hashable {
        case none
        /// Arm the timer to fire after this delay.
        case schedule(Duration)
        /// Disarm the timer.
        case cancel
        /// Push the keys that still need a sync.
        case push
    }

    private let initial: Duration
    private let maximum: Duration
    private var retries = 0
    private var reachable = false
    private var armed = false

    /// Retries wait `initial`, then twice as long each time, up to `maximum`.
    public init(initial: Duration, maximum: Duration) {
        self.initial = initial
        self.maximum = maximum
    }

    public mutating func event(_ event: Event) -> Action {
        switch event {
        case .unconfirmed:
            // Unreachable: the return of reachability pushes again. Armed: one retry at a time.
            guard reachable, !armed else { return .none }
            armed = true
            defer { retries += 1 }
            return .schedule(RetryDelaySequence<SeededRandom>.cap(retry: retries, initial: initial, multiplier: 2, maximum: maximum))
        case .confirmed:
            retries = 0
            return disarm()
        case .reachability(let now):
            // Becoming reachable pushes by itself (`statusChanged`); losing the peer ends the series.
            reachable = now
            retries = 0
            return disarm()
        case .timerFired:
            guard armed else { return .none }
            armed = false
            return reachable ? .push : .none
        }
    }

    private mutating func disarm() -> Action {
        guard armed else { return .none }
        armed = false
        return .cancel
    }
}
