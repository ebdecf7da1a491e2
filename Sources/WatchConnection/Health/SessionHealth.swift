/// How well the link has been working lately, from consecutive failures (`HealthMachine`).
public enum SessionHealth: String, Sendable, Hashable, Codable, CaseIterable {
    /// Working: the last request succeeded, or too few failed in a row to matter.
    case healthy
    /// Several requests in a row failed (3 by default): expect delays.
    case degraded
    /// Many requests in a row failed (10 by default): the user likely has to act.
    case unhealthy

    /// Whether this is `.healthy`.
    public var isHealthy: Bool { self == .healthy }
    /// Whether this is `.unhealthy`: show a suggestion, offer `attemptRecovery()`.
    public var requiresUserIntervention: Bool { self == .unhealthy }
}
