import Foundation
import WatchConnection

/// What the app reads of the session, and its activation.
extension FlakySession {
    /// Activated once `activate` ran without an `activationError` (and not `isStuck`).
    public var activationState: SessionActivationState { state.withLock { $0.activationState } }

    /// Whether the counterpart is reachable: the link (`setReachable(_:)`), except that
    /// `phantomReachability` reads true while set and `asymmetricReachability` reads false after an
    /// injection until the link next changes. Setting it is `setReachable(_:)` (FlakyWCSession's spelling).
    public var isReachable: Bool {
        get {
            state.withLock { state in
                state.quirks.isSet(.phantomReachability) || (state.isReachable && !state.reachabilityHidden)
            }
        }
        set { setReachable(newValue) }
    }

    /// Settable with `setCounterpartAppInstalled(_:)`; false for a while after an `installedFlapping` injection.
    public var isCounterpartAppInstalled: Bool {
        state.withLock { $0.isCounterpartAppInstalled && !$0.counterpartHidden }
    }

    /// Settable with `setCounterpartDeviceOn(_:)`; nil (cannot tell) until set.
    public var isCounterpartDeviceOn: Bool? { state.withLock { $0.isCounterpartDeviceOn } }

    /// Activates at once (or fails with `activationError`), then delivers what waited. A stuck session
    /// (`isStuck`) never completes activation.
    ///
    /// Activation is also a restart of the app: userInfo transfers stuck by `stuckUserInfo` leave now.
    /// It is the opportunity of `contextReplay` (when a context was received: it is delivered again),
    /// `installedFlapping` (the counterpart app reads not installed for the drawn delay) and, when the
    /// link is reachable, `asymmetricReachability`.
    public func activate(reportingTo receiver: @escaping @Sendable (SessionEvent) -> Void) {
        let outcome = state.withLock { state -> Activation? in
            // Stuck: the activation never completes, and nothing reaches this receiver.
            guard !state.isStuck else { return nil }
            state.receiver = receiver
            state.activationState = state.activationError == nil ? .activated : .notActivated
            var outcome = Activation(error: state.activationError)
            guard state.activationError == nil else { return outcome }
            outcome.released = state.outstanding
            state.outstanding = []
            if let context = state.receivedContext, state.inject(.contextReplay) != nil { outcome.replay = context }
            if let injection = state.inject(.installedFlapping) {
                state.counterpartHidden = true
                outcome.flap = injection.delay
            }
            if state.isReachable, state.inject(.asymmetricReachability) != nil { state.reachabilityHidden = true }
            return outcome
        }
        guard let outcome else { return }
        receiver(.activationCompleted(outcome.error == nil ? .activated : .notActivated, error: outcome.error))
        guard outcome.error == nil else { return }
        if let replay = outcome.replay { receiver(.applicationContext(replay)) }
        deliverArrivals()
        send(outcome.released.map(SessionEvent.userInfo))
        if let flap = outcome.flap {
            report(.stateChanged)
            later(flap) {
                self.state.withLock { $0.counterpartHidden = false }
                self.report(.stateChanged)
            }
        }
    }

    private struct Activation {
        var error: (any Error)?
        var released: [[String: String]] = []
        var replay: [String: String]?
        var flap: Duration?
    }
}
