/// The health state machine: consecutive failures move it down, any success moves it to `.healthy`.
///
/// Fed once per request (`RequestOutcome`), not per attempt, and by `attemptRecovery()`'s probe.
///
/// `degradedAfter` consecutive failures (3) → `.degraded`; `unhealthyAfter` (10) → `.unhealthy`.
/// Only a change of state is reported, so each transition is reported once.
public struct HealthMachine: Sendable, Hashable {
    /// The thresholds.
    public struct Thresholds: Sendable, Hashable {
        /// Consecutive failures that make the session degraded.
        public var degradedAfter: Int
        /// Consecutive failures that make it unhealthy.
        public var unhealthyAfter: Int

        /// Thresholds; `unhealthyAfter` is raised to `degradedAfter` if below it, both to at least 1.
        public init(degradedAfter: Int = 3, unhealthyAfter: Int = 10) {
            self.degradedAfter = max(1, degradedAfter)
            self.unhealthyAfter = max(self.degradedAfter, unhealthyAfter)
        }
    }

    /// What happened to a request.
    public enum Event: Sendable, Hashable {
        /// A request (or recovery probe) reached the peer.
        case succeeded
        /// A request failed (`RequestOutcome.failed`).
        case failed
    }

    /// What the owner does.
    public enum Action: Sendable, Hashable {
        /// Nothing changed.
        case none
        /// The health changed: report it.
        case changed(from: SessionHealth, to: SessionHealth)
    }

    /// The current health.
    public private(set) var health: SessionHealth = .healthy
    /// Failures since the last success.
    public private(set) var consecutiveFailures = 0
    /// The thresholds in force.
    public let thresholds: Thresholds

    /// A healthy machine.
    public init(thresholds: Thresholds = Thresholds()) {
        self.thresholds = thresholds
    }

    /// Records `event`; returns whether the health changed.
    public mutating func event(_ event: Event) -> Action {
        switch event {
        case .succeeded: consecutiveFailures = 0
        case .failed: consecutiveFailures += 1
        }
        let next: SessionHealth =
            consecutiveFailures >= thresholds.unhealthyAfter ? .unhealthy
            : consecutiveFailures >= thresholds.degradedAfter ? .degraded : .healthy
        guard next != health else { return .none }
        defer { health = next }
        return .changed(from: health, to: next)
    }
}
