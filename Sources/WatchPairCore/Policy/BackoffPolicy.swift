import Foundation

/// Reconnection schedule: exponential backoff with full jitter, and a total time after which the link
/// reports "disconnected: timed out" (content stays queued; a peer socket appearing retries at once).
public struct BackoffPolicy: Sendable, Hashable {
    /// Upper bound of the first delay.
    public var initial: Duration
    /// Growth factor of the upper bound per failed attempt.
    public var multiplier: Double
    /// Cap of the upper bound.
    public var maximum: Duration
    /// Failing for this long (sum of delays waited) gives up until something changes.
    public var giveUpAfter: Duration

    public init(
        initial: Duration = .milliseconds(100),
        multiplier: Double = 2,
        maximum: Duration = .seconds(5),
        giveUpAfter: Duration = .seconds(300)
    ) {
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = maximum
        self.giveUpAfter = giveUpAfter
    }

    /// Upper bound of the delay before attempt `attempt` (0-based): `min(maximum, initial × multiplierᵃᵗᵗᵉᵐᵖᵗ)`.
    public func ceiling(attempt: Int) -> Duration {
        let initialSeconds = initial.seconds
        let grown = initialSeconds * pow(multiplier, Double(min(attempt, 64)))
        return .seconds(min(maximum.seconds, grown))
    }

    /// Full jitter: a delay drawn uniformly from [0, ceiling) with `unit` in [0, 1).
    public func delay(attempt: Int, unit: Double) -> Duration {
        let clamped = min(max(unit, 0), 1)
        return .seconds(ceiling(attempt: attempt).seconds * clamped)
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    public var seconds: Double {
        let (s, attos) = components
        return Double(s) + Double(attos) / 1e18
    }
}
