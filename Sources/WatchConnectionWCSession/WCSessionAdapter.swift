import Foundation
import WatchConnection
import WatchConnectivity

/// WatchPair's `WCSession` as the `WCSessionProviding` that `WatchConnection` runs on.
///
/// Why a target of its own: `WatchConnection` must import nothing of WatchPair (so it would compile over
/// Apple's framework), and `WatchConnectivity` must not know the layer above it (docs/WatchConnection.md).
/// This small target is the only one that sees both. Why a wrapper and not `extension WCSession`: the layer
/// receives the session's events through its delegate, which `WCSession` holds weakly; the adapter owns that
/// delegate object, so nothing else has to keep it alive.
///
/// The adapter becomes the session's delegate when `WatchConnection` activates it: an app using the
/// layer receives through the layer, not through a delegate of its own. Its delegate calls `activate()`
/// again in `sessionDidDeactivate`, as Apple's sample code does, so a phone app on the layer follows a
/// watch switch to the new watch (docs/Watches.md). Values that are not strings
/// are dropped from received dictionaries (the layer's wire form is a JSON string).
public final class WCSessionAdapter: WCSessionProviding {
    /// The wrapped session.
    public let session: WCSession
    private let delegate = EventDelegate()

    /// An adapter of `session` (usually `WCSession.default`).
    public init(_ session: WCSession) {
        self.session = session
    }

    /// `session.activationState`.
    public var activationState: SessionActivationState {
        SessionActivationState(rawValue: session.activationState.rawValue) ?? .notActivated
    }

    /// `session.isReachable`.
    public var isReachable: Bool { session.isReachable }

    /// `session.isWatchAppInstalled` (the same value as `isCompanionAppInstalled` here).
    public var isCounterpartAppInstalled: Bool { session.isWatchAppInstalled }

    /// Whether anything listens for the counterpart (WatchPair's session probes its socket): false while
    /// its device is off. An adapter of Apple's `WCSession` leaves this out (nil: cannot tell).
    public var isCounterpartDeviceOn: Bool? { session.isCounterpartListening }

    /// Sets the delegate that forwards to `receiver`, then activates (again) the session.
    public func activate(reportingTo receiver: @escaping @Sendable (SessionEvent) -> Void) {
        delegate.receiver.withLock { $0 = EventDelegate.Receiver(report: receiver) }
        session.delegate = delegate
        if session.activationState == .activated {
            // Already active: report the state, as a fresh activation would.
            receiver(.activationCompleted(.activated, error: nil))
        } else {
            session.activate()
        }
    }

    /// `session.sendMessage(_:replyHandler:errorHandler:)`.
    public func sendMessage(
        _ message: [String: String],
        replyHandler: (@Sendable ([String: String]) -> Void)?,
        errorHandler: @escaping @Sendable (any Error) -> Void
    ) {
        session.sendMessage(
            message,
            replyHandler: replyHandler.map { handler in { reply in handler(Self.strings(reply)) } },
            errorHandler: errorHandler)
    }

    /// `session.transferUserInfo(_:)`; throws 7004 when the session is not activated.
    ///
    /// Not activated is the refusal that can be told at once. `isTransferring` is no test of refusal: a
    /// transfer the peer already received is not transferring either. The rarer refusals (7015, the
    /// outbox full) reach `session(_:didFinish:error:)` only; the layer's request then ends by its timeout.
    public func transferUserInfo(_ userInfo: [String: String]) throws {
        guard session.activationState == .activated else { throw WCError(.sessionNotActivated) }
        session.transferUserInfo(userInfo)
    }

    /// `session.updateApplicationContext(_:)`.
    public func updateApplicationContext(_ applicationContext: [String: String]) throws {
        try session.updateApplicationContext(applicationContext)
    }

    /// The string values of a received dictionary.
    static func strings(_ dictionary: [String: Any]) -> [String: String] {
        dictionary.compactMapValues { $0 as? String }
    }
}
