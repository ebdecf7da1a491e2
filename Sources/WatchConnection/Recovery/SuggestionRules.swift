/// When to suggest what, and the dedupe window: a pure machine over a `Duration` timeline.
///
/// Rules:
/// - `bringDevicesCloser`: `flapCount` (3) reachability changes within `flapWindow` (60 s).
/// - `openCompanionApp`: a request failed with the peer not reachable (7007) while its app is installed
///   and its device is on (or the session cannot tell): installed, not running.
/// - `checkBluetoothEnabled`: a request failed with the peer not reachable while its device is off
///   (nothing listens) or its app is not installed, or activation failed: the link cannot be set up.
/// - `restartWatch`: health became `.unhealthy`.
/// - `repairDevices`: `attemptRecovery()` failed.
///
/// A suggestion made less than `dedupeWindow` (30 s) after the same suggestion is suppressed.
/// Memory is bounded: one timestamp per suggestion, and at most `flapCount` reachability changes.
public struct SuggestionRules: Sendable {
    /// What happened.
    public enum Event: Sendable, Hashable {
        /// Reachability changed.
        case reachabilityChanged
        /// A request failed (`RequestOutcome.failed`: once per request, as health counts it), with
        /// what the session said of the counterpart then.
        case requestFailed(WatchConnectionError, counterpart: CounterpartState)
        /// Activation failed.
        case activationFailed
        /// The health changed to this.
        case healthChanged(SessionHealth)
        /// `attemptRecovery()` failed.
        case recoveryFailed
    }

    /// What the owner does.
    public enum Action: Sendable, Hashable {
        /// Nothing to show.
        case none
        /// Show this suggestion (and log it).
        case suggest(RecoverySuggestion)
    }

    /// Within this window the same suggestion is made once.
    public let dedupeWindow: Duration
    /// Reachability changes within `flapWindow` that count as flapping.
    public let flapCount: Int
    /// See `flapCount`.
    public let flapWindow: Duration
    private var lastMade: [RecoverySuggestion: Duration] = [:]
    private var recentFlaps: [Duration] = []

    /// Rules with the given windows.
    public init(dedupeWindow: Duration = .seconds(30), flapCount: Int = 3, flapWindow: Duration = .seconds(60)) {
        self.dedupeWindow = dedupeWindow
        self.flapCount = max(1, flapCount)
        self.flapWindow = flapWindow
    }

    /// Records `event` at `now` (time since any fixed origin); returns the suggestion to make, if any.
    public mutating func event(_ event: Event, at now: Duration) -> Action {
        guard let suggestion = rule(event, at: now) else { return .none }
        if let last = lastMade[suggestion], now - last < dedupeWindow { return .none }
        lastMade[suggestion] = now
        return .suggest(suggestion)
    }

    private mutating func rule(_ event: Event, at now: Duration) -> RecoverySuggestion? {
        switch event {
        case .reachabilityChanged:
            recentFlaps.append(now)
            recentFlaps.removeAll { now - $0 > flapWindow }
            if recentFlaps.count > flapCount { recentFlaps.removeFirst(recentFlaps.count - flapCount) }
            return recentFlaps.count >= flapCount ? .bringDevicesCloser : nil
        case .requestFailed(let error, let counterpart):
            // Only "not reachable" says where the trouble is; other failures reach the user through health.
            guard error.code == 7007 else { return nil }
            return counterpart.deviceOn == false || !counterpart.appInstalled ? .checkBluetoothEnabled : .openCompanionApp
        case .activationFailed:
            return .checkBluetoothEnabled
        case .healthChanged(let health):
            return health == .unhealthy ? .restartWatch : nil
        case .recoveryFailed:
            return .repairDevices
        }
    }
}
