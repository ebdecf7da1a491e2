/// When to try the peer again while background content waits: a pure state machine.
///
/// States: `idle` (no failures) → `backingOff(attempt, failingFor)` after each failure →
/// `timedOut` once the delays waited add up to `giveUpAfter`. A success or a change at the peer
/// (its socket appeared, new content) resets to `idle`.
public struct ReconnectStateMachine: Sendable, Hashable {
    /// Where the schedule stands.
    public enum State: Sendable, Hashable {
        /// No failed attempt since the last reset.
        case idle
        /// `attempt` consecutive failures; `failingFor` is the total delay already scheduled.
        case backingOff(attempt: Int, failingFor: Duration)
        /// Gave up; waits for `reset()`.
        case timedOut
    }

    /// What the driver must do after a failed attempt.
    public enum Action: Sendable, Hashable {
        /// Wait this long (or until something changes), then try again.
        case retry(after: Duration)
        /// Stop trying until `reset()`; report "disconnected: timed out".
        case giveUp
    }

    public private(set) var state: State = .idle
    public let policy: BackoffPolicy

    public init(policy: BackoffPolicy) {
        self.policy = policy
    }

    /// A connection attempt failed; `jitter` is a uniform random number in [0, 1).
    public mutating func attemptFailed(jitter: Double) -> Action {
        let (attempt, failingFor): (Int, Duration)
        switch state {
        case .idle: (attempt, failingFor) = (0, .zero)
        case .backingOff(let a, let f): (attempt, failingFor) = (a, f)
        case .timedOut: return .giveUp
        }
        if failingFor >= policy.giveUpAfter {
            state = .timedOut
            return .giveUp
        }
        let delay = min(policy.delay(attempt: attempt, unit: jitter), policy.giveUpAfter - failingFor)
        state = .backingOff(attempt: attempt + 1, failingFor: failingFor + delay)
        return .retry(after: delay)
    }

    /// The link was established, or something changed that makes a new attempt worthwhile.
    public mutating func reset() {
        state = .idle
    }

    /// True once the schedule gave up.
    public var isTimedOut: Bool { state == .timedOut }
}
