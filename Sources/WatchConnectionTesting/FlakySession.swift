import Foundation
import Synchronization
import WatchConnection

/// A `WCSessionProviding` with faults you choose: failure probability, lost replies, latency,
/// reachability flapping and scripted faults, all seeded (the same seed and the same calls give the
/// same outcomes: `history` replays) and all time from an injected clock.
///
/// ```swift
/// let flakySession = FlakySession()            // loopback: the connection answers itself
/// flakySession.failureProbability = 0.3
/// let connection = WatchConnection(session: flakySession)
///
/// let (phone, watch) = FlakySession.pair(seed: 7, clock: clock)   // two apps, one link
/// ```
///
/// A lone `FlakySession` is a loopback: what it sends arrives at itself, so one `WatchConnection`
/// both sends and handles. `pair` links two sessions. Each live message draws its fate in this order:
/// the next scripted fault, else `failureProbability` (fails with 7014 before delivery), else
/// `replyLossProbability` (delivered and handled, reply lost: 7011), else delivered. Not activated:
/// 7004; not reachable: 7007. userInfo and context always arrive (they are durable channels), after
/// `latency`. Latency zero delivers synchronously, so a manual clock need not move.
public final class FlakySession: WCSessionProviding, Sendable {
    /// What happens to one live message.
    public enum Fault: Sendable, Hashable {
        /// Delivered; the reply comes back.
        case deliver
        /// Fails before delivery with this `WCErrorDomain` code (e.g. 7007, 7014, 7012).
        case fail(code: Int)
        /// Delivered and handled, but the reply is lost: the sender gets 7011.
        case loseReply
    }

    private struct State {
        var random: SeededRandom
        var failureProbability = 0.0
        var replyLossProbability = 0.0
        var latency: Duration = .zero
        var isReachable = true
        var isCounterpartAppInstalled = true
        var isCounterpartDeviceOn: Bool?
        var activationState = SessionActivationState.notActivated
        var activationError: (any Error)?
        var script: [Fault] = []
        var history: [Fault] = []
        var receiver: (@Sendable (SessionEvent) -> Void)?
        /// Transfers that arrived before activation, delivered on activation (bounded by the test).
        var undelivered: [SessionEvent] = []
        weak var peer: FlakySession?
        var loopback = true
    }

    private let state: Mutex<State>
    private let sleep: @Sendable (Duration) async throws -> Void

    /// A loopback session with faults drawn from `seed`, latency on `clock`.
    public init(seed: UInt64 = 0, clock: any Clock<Duration> = ContinuousClock()) {
        state = Mutex(State(random: SeededRandom(seed: seed)))
        sleep = Self.sleeper(clock)
    }

    private static func sleeper<C: Clock<Duration>>(_ clock: C) -> @Sendable (Duration) async throws -> Void {
        { try await clock.sleep(until: clock.now.advanced(by: $0), tolerance: nil) }
    }

    /// Two linked sessions (the phone app's and the watch app's), seeded `seed` and `seed + 1`.
    public static func pair(seed: UInt64 = 0, clock: any Clock<Duration> = ContinuousClock()) -> (FlakySession, FlakySession) {
        let phone = FlakySession(seed: seed, clock: clock)
        let watch = FlakySession(seed: seed &+ 1, clock: clock)
        phone.state.withLock {
            $0.peer = watch
            $0.loopback = false
        }
        watch.state.withLock {
            $0.peer = phone
            $0.loopback = false
        }
        return (phone, watch)
    }

    // MARK: Knobs

    /// The chance (0…1) that a live message fails before delivery (7014).
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

    /// Sets reachability (on both sides of a pair) and reports the change to both.
    public func setReachable(_ reachable: Bool) {
        let sessions = [self] + (state.withLock { $0.peer }.map { [$0] } ?? [])
        for session in sessions { session.state.withLock { $0.isReachable = reachable } }
        for session in sessions { session.report(.stateChanged) }
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
            setReachable(!isReachable)
        }
    }

    // MARK: WCSessionProviding

    /// Activated once `activate` ran without an `activationError`.
    public var activationState: SessionActivationState { state.withLock { $0.activationState } }
    /// Settable with `setReachable(_:)`.
    public var isReachable: Bool { state.withLock { $0.isReachable } }
    /// Settable with `setCounterpartAppInstalled(_:)`.
    public var isCounterpartAppInstalled: Bool { state.withLock { $0.isCounterpartAppInstalled } }
    /// Settable with `setCounterpartDeviceOn(_:)`; nil (cannot tell) until set.
    public var isCounterpartDeviceOn: Bool? { state.withLock { $0.isCounterpartDeviceOn } }

    /// Activates at once (or fails with `activationError`), then delivers transfers that waited.
    public func activate(reportingTo receiver: @escaping @Sendable (SessionEvent) -> Void) {
        let (error, waiting) = state.withLock { state -> ((any Error)?, [SessionEvent]) in
            state.receiver = receiver
            state.activationState = state.activationError == nil ? .activated : .notActivated
            defer { state.undelivered = [] }
            return (state.activationError, state.activationError == nil ? state.undelivered : [])
        }
        receiver(.activationCompleted(error == nil ? .activated : .notActivated, error: error))
        waiting.forEach(receiver)
    }

    /// Delivers to the peer (or itself), with the fault drawn for it.
    public func sendMessage(
        _ message: [String: String],
        replyHandler: (@Sendable ([String: String]) -> Void)?,
        errorHandler: @escaping @Sendable (any Error) -> Void
    ) {
        let (fault, latency, target) = state.withLock { state -> (Fault, Duration, FlakySession?) in
            let fault: Fault
            if state.activationState != .activated {
                fault = .fail(code: 7004)
            } else if !state.isReachable {
                fault = .fail(code: 7007)
            } else if !state.script.isEmpty {
                fault = state.script.removeFirst()
            } else if Double.random(in: 0..<1, using: &state.random) < state.failureProbability {
                fault = .fail(code: 7014)
            } else if Double.random(in: 0..<1, using: &state.random) < state.replyLossProbability {
                fault = .loseReply
            } else {
                fault = .deliver
            }
            state.history.append(fault)
            return (fault, state.latency, state.loopback ? self : state.peer)
        }
        later(latency) {
            self.carry(message, fault: fault, to: target, latency: latency, replyHandler: replyHandler, errorHandler: errorHandler)
        }
    }

    /// Carries out a message's drawn fate.
    private func carry(
        _ message: [String: String], fault: Fault, to target: FlakySession?, latency: Duration,
        replyHandler: (@Sendable ([String: String]) -> Void)?, errorHandler: @escaping @Sendable (any Error) -> Void
    ) {
        guard let target else { return errorHandler(Self.error(7007)) }
        let reply: (@Sendable ([String: String]) -> Void)?
        switch fault {
        case .fail(let code):
            return errorHandler(Self.error(code))
        case .loseReply:
            reply = { @Sendable _ in errorHandler(Self.error(7011)) }
        case .deliver:
            if let replyHandler {
                reply = { @Sendable answer in self.later(latency) { replyHandler(answer) } }
            } else {
                reply = nil
            }
        }
        target.report(.message(message, reply: reply))
    }

    /// Delivers to the peer (or itself) after `latency`; 7004 when not activated.
    public func transferUserInfo(_ userInfo: [String: String]) throws {
        try deliverDurably(.userInfo(userInfo))
    }

    /// Delivers to the peer (or itself) after `latency`; 7004 when not activated.
    public func updateApplicationContext(_ applicationContext: [String: String]) throws {
        try deliverDurably(.applicationContext(applicationContext))
    }

    private func deliverDurably(_ event: SessionEvent) throws {
        let (activated, latency, target) = state.withLock { ($0.activationState == .activated, $0.latency, $0.loopback ? self : $0.peer) }
        guard activated else { throw Self.error(7004) }
        guard let target else { throw Self.error(7005) }
        later(latency) { target.receiveDurably(event) }
    }

    /// A durable transfer arrives: now if activated, else on activation.
    private func receiveDurably(_ event: SessionEvent) {
        let receiver = state.withLock { state -> (@Sendable (SessionEvent) -> Void)? in
            guard state.activationState == .activated, let receiver = state.receiver else {
                state.undelivered.append(event)
                return nil
            }
            return receiver
        }
        receiver?(event)
    }

    private func report(_ event: SessionEvent) {
        state.withLock { $0.receiver }?(event)
    }

    /// Runs `body` after `delay` on the clock; at once (synchronously) when the delay is zero.
    private func later(_ delay: Duration, _ body: @escaping @Sendable () -> Void) {
        guard delay > .zero else { return body() }
        let sleep = self.sleep
        Task {
            try? await sleep(delay)
            body()
        }
    }

    /// An error of `WCErrorDomain` with `code`, as `WCSession` reports it.
    public static func error(_ code: Int) -> NSError {
        NSError(domain: "WCErrorDomain", code: code, userInfo: [NSLocalizedDescriptionKey: "FlakySession fault \(code)"])
    }
}
