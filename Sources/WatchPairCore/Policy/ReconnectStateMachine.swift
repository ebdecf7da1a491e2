/// When to try the peer again while background content waits: a pure state machine.
///
/// States: `idle` (no failures) → `backingOff(attempt, failingFor)` after each failure →
/// `timedOut` once the delays waited add up to `giveUpAfter`. A success or a change at the peer
/// (its socket appeared, new content) resets to `idle`.
///
/// A peer that refuses content for lack of space (7015: its inbox is full, its disk is full) is alive:
/// that is back pressure, not a failure. `peerRefused` moves to `refused(attempt)`, whose delays grow
/// as the failures' do (capped at `maximum`) but never add up to a give-up.
public struct ReconnectStateMachine: Sendable, Hashable {
    /// Where the schedule stands.
    public enum State: Sendable, Hashable {
        /// No failed attempt since the last reset.
        case idle
        /// `attempt` consecutive failures; `failingFor` is the total delay already scheduled.
        case backingOff(attempt: Int, failingFor: Duration)
        /// Gave up; waits for `reset()`.
        case timedOut
        /// The peer refused content for space `attempt` times in a row; retried until it has room.
        case refused(attempt: Int)
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
        // A refusing peer that is now unreachable starts an ordinary schedule.
        case .refused: (attempt, failingFor) = (0, .zero)
        }
        if failingFor >= policy.giveUpAfter {
            state = .timedOut
            return .giveUp
        }
        let delay = min(policy.delay(attempt: attempt, unit: jitter), policy.giveUpAfter - failingFor)
        state = .backingOff(attempt: attempt + 1, failingFor: failingFor + delay)
        return .retry(after: delay)
    }

    /// The peer refused content for space (7015); `jitter` is a uniform random number in [0, 1).
    /// Always `.retry`: the delay's ceiling grows per refusal up to `maximum`, with no give-up.
    public mutating func peerRefused(jitter: Double) -> Action {
        let attempt: Int
        switch state {
        case .refused(let previous): attempt = previous
        case .idle, .backingOff, .timedOut: attempt = 0
        }
        state = .refused(attempt: attempt + 1)
        return .retry(after: policy.delay(attempt: attempt, unit: jitter))
    }

    /// True while the peer refuses for space (its room, not its absence, decides the next attempt).
    public var isRefused: Bool {
        if case .refused = state { return true }
        return false
    }

    /// The link was established, or something changed that makes a new attempt worthwhile.
    public mutating func reset() {
        state = .idle
    }

    /// True once the schedule gave up.
    public var isTimedOut: Bool { state == .timedOut }
}
