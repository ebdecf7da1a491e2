import Foundation
import WatchConnection

/// The faults of the link, set by the test.
extension FlakySession {
    /// The chance (0…1) that a live message fails before delivery, with one of `possibleErrors` (7014
    /// unless set).
    public var failureProbability: Double {
        get { state.withLock { $0.failureProbability } }
        set { state.withLock { $0.failureProbability = newValue } }
    }

    /// The chance (0…1) that a delivered message's reply is lost (7011): the receiver ran it.
    public var replyLossProbability: Double {
        get { state.withLock { $0.replyLossProbability } }
        set { state.withLock { $0.replyLossProbability = newValue } }
    }

    /// The delay of every delivery and reply, on the injected clock.
    public var latency: Duration {
        get { state.withLock { $0.latency } }
        set { state.withLock { $0.latency = newValue } }
    }

    /// How long a sender waits for a reply before its error handler gets 7012 (10 s, WatchPair's
    /// default). Only the reply quirks (`lostReply`, `lateReply`) wait it out; it counts from the send.
    public var replyTimeout: Duration {
        get { state.withLock { $0.replyTimeout } }
        set { state.withLock { $0.replyTimeout = newValue } }
    }

    /// The error activation reports (nil: activation succeeds).
    public var activationError: (any Error)? {
        get { state.withLock { $0.activationError } }
        set { state.withLock { $0.activationError = newValue } }
    }

    /// Faults used, in order, by the next live messages, before any probability is drawn.
    public func script(_ faults: [Fault]) {
        state.withLock { $0.script.append(contentsOf: faults) }
    }

    /// The fate of every live message so far, in order: the same seed and calls give the same history.
    public var history: [Fault] { state.withLock { $0.history } }

    /// Sets reachability (on both sides of a pair) and reports the change to both. A change ends an
    /// `asymmetricReachability` injection; a change to reachable is that quirk's opportunity.
    public func setReachable(_ reachable: Bool) {
        let sessions = [self] + (state.withLock { $0.peer }.map { [$0] } ?? [])
        for session in sessions { session.linkChanged(reachable: reachable) }
        for session in sessions { session.report(.stateChanged) }
    }

    private func linkChanged(reachable: Bool) {
        state.withLock { state in
            let turnsReachable = reachable && !state.isReachable
            if reachable != state.isReachable { state.reachabilityHidden = false }
            state.isReachable = reachable
            if turnsReachable, state.inject(.asymmetricReachability) != nil { state.reachabilityHidden = true }
        }
    }

    /// Sets whether the counterpart app is installed, and reports it.
    public func setCounterpartAppInstalled(_ installed: Bool) {
        state.withLock { $0.isCounterpartAppInstalled = installed }
        report(.stateChanged)
    }

    /// Sets whether the counterpart's device is on (nil: the session cannot tell, as Apple's), and
    /// reports it. Off and not reachable is "device off"; on and not reachable, "installed, not running".
    public func setCounterpartDeviceOn(_ on: Bool?) {
        state.withLock { $0.isCounterpartDeviceOn = on }
        report(.stateChanged)
    }

    /// Toggles reachability `times` times, `interval` apart on the clock (a link at the edge of range).
    public func flapReachability(times: Int, every interval: Duration) async throws {
        for _ in 0..<times {
            try await sleep(interval)
            setReachable(!state.withLock { $0.isReachable })
        }
    }
}
