import Foundation
import WatchConnection
import WatchPairQuirks

/// The knobs of WatchConnectivitySwift's `FlakyWCSession`, with the same meanings, so its users' tests
/// port with the import changed (docs/Quirks.md, "Porting from FlakyWCSession").
///
/// Matched against `Tests/WatchConnectivitySwiftTests/Mocks/FlakyWCSession.swift` of
/// ts95/WatchConnectivitySwift at commit 2efd9a51683aea1da96f01d3f48fb5a7d1515add. Differences, each
/// on purpose: every draw is seeded (the original uses the system generator); the probabilities start
/// at 0 (the original's 0.3, 0.1 and 0.2 are `withFlakyWCSessionDefaults(seed:clock:)`); a phantom
/// failure is always 7007 (the `phantomReachability` quirk; the original draws from `possibleErrors`);
/// `delayProbability`, declared but unused there, delays a message by a draw from `delayRange`; while
/// stuck, userInfo transfers wait (`outstandingUserInfoTransfers`) instead of going nowhere.
extension FlakySession {
    /// A session with FlakyWCSession's starting probabilities: 0.3 failure, 0.1 phantom reachability,
    /// 0.2 delay, and its three errors (7007, 7014, 7012) to fail with.
    public static func withFlakyWCSessionDefaults(seed: UInt64 = 0, clock: any Clock<Duration> = ContinuousClock()) -> FlakySession {
        let session = FlakySession(seed: seed, clock: clock)
        session.failureProbability = 0.3
        session.phantomReachabilityProbability = 0.1
        session.delayProbability = 0.2
        session.possibleErrors = [error(7007), error(7014), error(7012)]
        return session
    }

    /// The chance (0…1) that `isReachable` lies: it reads true, and a message fails with 7007 without
    /// reaching the peer. This is the `phantomReachability` quirk's probability (seeded with the
    /// session's seed); 0 clears the quirk. Values outside 0…1 are clamped.
    public var phantomReachabilityProbability: Double {
        get {
            state.withLock { state in
                state.quirks.statuses.first { $0.quirk == .phantomReachability }?.setting.probability ?? 0
            }
        }
        set {
            let probability = min(1, max(0, newValue.isNaN ? 0 : newValue))
            guard probability > 0 else { return clearQuirk(.phantomReachability) }
            let seed = state.withLock { $0.seed }
            // Valid by construction: a probability in 0…1 and the default count and delay.
            if let setting = try? QuirkSetting(probability: probability, seed: seed) { setQuirk(.phantomReachability, setting) }
        }
    }

    /// The chance (0…1) that a message that reaches the peer is delayed by a duration drawn from
    /// `delayRange`, on the injected clock, on top of `latency`.
    public var delayProbability: Double {
        get { state.withLock { $0.delayProbability } }
        set { state.withLock { $0.delayProbability = newValue } }
    }

    /// The range `delayProbability`'s delays are drawn from, uniformly (100 ms…1 s).
    public var delayRange: ClosedRange<Duration> {
        get { state.withLock { $0.delayRange } }
        set { state.withLock { $0.delayRange = newValue } }
    }

    /// The errors a `failureProbability` failure reports, one drawn per failure (7014 alone by default).
    public var possibleErrors: [any Error] {
        get { state.withLock { $0.possibleErrors } }
        set { state.withLock { $0.possibleErrors = newValue.isEmpty ? [Self.error(7014)] : newValue } }
    }

    /// Whether the session is stuck, as one that needs a restart: activation never completes, messages
    /// are never answered (neither reply nor error), `updateApplicationContext` throws 7014, userInfo
    /// transfers wait. Setting it false (`simulateRecovery()`) sends the waiting transfers, in order;
    /// an activation that did not complete stays so (activate again, as `attemptRecovery()` does).
    public var isStuck: Bool {
        get { state.withLock { $0.isStuck } }
        set {
            let released = state.withLock { state -> [[String: String]] in
                let wasStuck = state.isStuck
                state.isStuck = newValue
                guard wasStuck, !newValue, state.activationState == .activated else { return [] }
                defer { state.outstanding = [] }
                return state.outstanding
            }
            send(released.map(SessionEvent.userInfo))
        }
    }

    /// Makes the session stuck (`isStuck = true`).
    public func simulateStuck() { isStuck = true }

    /// Ends the stuck state (`isStuck = false`).
    public func simulateRecovery() { isStuck = false }

    /// userInfo transfers accepted but not sent yet (`stuckUserInfo`, `isStuck`), oldest first.
    public var outstandingUserInfoTransfers: [[String: String]] { state.withLock { $0.outstanding } }

    /// The last application context this app set.
    public var applicationContext: [String: String] { state.withLock { $0.sentContext } }

    /// The last application context delivered to this app.
    public var receivedApplicationContext: [String: String] { state.withLock { $0.receivedContext ?? [:] } }

    /// Live messages sent (every `sendMessage`).
    public var totalAttempts: Int { state.withLock { $0.totalAttempts } }
    /// Live messages whose drawn fate was delivery.
    public var successfulAttempts: Int { state.withLock { $0.successfulAttempts } }
    /// Live messages whose drawn fate was an error (a failure or a lost reply); stuck ones are neither.
    public var failedAttempts: Int { state.withLock { $0.failedAttempts } }

    /// `successfulAttempts / totalAttempts`, 1 before any attempt.
    public var successRate: Double {
        state.withLock { $0.totalAttempts == 0 ? 1 : Double($0.successfulAttempts) / Double($0.totalAttempts) }
    }

    /// Zeroes the statistics, ends the stuck state and forgets both contexts, as FlakyWCSession's.
    public func reset() {
        isStuck = false
        state.withLock { state in
            state.totalAttempts = 0
            state.successfulAttempts = 0
            state.failedAttempts = 0
            state.sentContext = [:]
            state.receivedContext = nil
        }
    }
}
