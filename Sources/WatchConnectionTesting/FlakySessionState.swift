import Foundation
import WatchConnection
import WatchPairQuirks

/// Everything a `FlakySession` holds, behind its one lock.
struct FlakySessionState {
    /// The session's seed: its fault draws, and the quirk settings its knobs make.
    let seed: UInt64
    var random: SeededRandom
    var failureProbability = 0.0
    var replyLossProbability = 0.0
    var latency: Duration = .zero
    /// The link's reachability (what `setReachable(_:)` set).
    var isReachable = true
    var isCounterpartAppInstalled = true
    var isCounterpartDeviceOn: Bool?
    var activationState = SessionActivationState.notActivated
    var activationError: (any Error)?
    var script: [FlakySession.Fault] = []
    var history: [FlakySession.Fault] = []
    var receiver: (@Sendable (SessionEvent) -> Void)?
    weak var peer: FlakySession?
    var loopback = true
    /// How long the sender waits for a reply before 7012 (the reply quirks count on it).
    var replyTimeout: Duration = .seconds(10)

    // FlakyWCSession's knobs and statistics.
    var delayProbability = 0.0
    var delayRange: ClosedRange<Duration> = .milliseconds(100) ... .seconds(1)
    var possibleErrors: [any Error] = [FlakySession.error(7014)]
    var isStuck = false
    var totalAttempts = 0
    var successfulAttempts = 0
    var failedAttempts = 0
    /// The last context this app set, and the last one delivered to it.
    var sentContext: [String: String] = [:]
    var receivedContext: [String: String]?

    // The quirks.
    var quirks = QuirkMachine()
    var quirkInjections: [QuirkMachine.Injection] = []
    /// `asymmetricReachability` hides the link until its next change.
    var reachabilityHidden = false
    /// `installedFlapping` hides the counterpart app for a while after activation.
    var counterpartHidden = false
    /// userInfo transfers not sent yet (`stuckUserInfo`, `isStuck`), oldest first; bounded by the test.
    var outstanding: [[String: String]] = []
    /// Arrivals not delivered yet (before activation, or behind a `delayedDelivery`), oldest first.
    var inbound: [FlakyArrival] = []
    var nextArrival = 0
    /// A caller is delivering arrivals (`deliverArrivals`): others leave theirs to it.
    var draining = false
    /// Late replies (`lateReply`) that arrived after their 7012 and were dropped.
    var droppedLateReplies = 0

    init(seed: UInt64) {
        self.seed = seed
        random = SeededRandom(seed: seed)
    }

    /// Asks the quirk machine at `quirk`'s opportunity; records and returns an injection.
    mutating func inject(_ quirk: Quirk) -> QuirkMachine.Injection? {
        guard !quirks.isEmpty, case .inject(let injection) = quirks.event(.opportunity(quirk)) else { return nil }
        quirkInjections.append(injection)
        return injection
    }

    /// A duration drawn uniformly from `range` with the session's generator.
    mutating func draw(_ range: ClosedRange<Duration>) -> Duration {
        let low = Self.nanoseconds(range.lowerBound)
        let high = Self.nanoseconds(range.upperBound)
        return .nanoseconds(low == high ? low : Int64.random(in: low...high, using: &random))
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}

/// One durable item on its way to the app: ready, or held back by `delayedDelivery`.
struct FlakyArrival {
    let number: Int
    let event: SessionEvent
    var ready: Bool
}
