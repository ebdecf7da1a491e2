/// The subset of Apple's `WCSession` that `WatchConnection` uses, so the layer runs over any session:
/// WatchPair's `WCSession` (through `WCSessionAdapter` of `WatchConnectionWCSession`), Apple's own
/// framework (an adapter of a dozen lines), or `FlakySession` of `WatchConnectionTesting`.
///
/// The layer only ever puts `[String: String]` dictionaries on the session (its wire form is one JSON
/// string, see `WireEnvelope`), so the protocol speaks `[String: String]`: that keeps it `Sendable` and
/// free of any framework type. An adapter drops values that are not strings from what it receives;
/// dictionaries without the layer's key are ignored by the layer.
///
/// Conformers must be safe to call from any thread, as `WCSession` is.
public protocol WCSessionProviding: AnyObject, Sendable {
    /// Whether the session is activated.
    var activationState: SessionActivationState { get }
    /// Whether the counterpart app can receive live messages now.
    var isReachable: Bool { get }
    /// Whether the counterpart app is installed (`isWatchAppInstalled` on the phone,
    /// `isCompanionAppInstalled` on the watch).
    var isCounterpartAppInstalled: Bool { get }
    /// Whether the counterpart's device is on: something listens for its app (it runs, or would be
    /// launched), so a peer that is not reachable is an app that is not running; false when nothing
    /// listens (the device is off or out of range). nil when the session cannot tell: the default, and
    /// what an adapter of Apple's `WCSession` (which has no such property) gives.
    var isCounterpartDeviceOn: Bool? { get }

    /// Makes `receiver` the receiver of every event of the session (replacing an earlier one), then
    /// activates the session; calling it again re-activates (what `attemptRecovery()` does).
    ///
    /// Events must be reported in the order they happened; `receiver` may be called on any thread.
    func activate(reportingTo receiver: @escaping @Sendable (SessionEvent) -> Void)

    /// Sends a live message. Exactly one of `replyHandler` (only when one is given) or `errorHandler`
    /// is called, on any thread; without a reply handler a successful send calls neither.
    func sendMessage(
        _ message: [String: String],
        replyHandler: (@Sendable ([String: String]) -> Void)?,
        errorHandler: @escaping @Sendable (any Error) -> Void
    )

    /// Queues a durable, ordered transfer; throws when the session refuses it at once.
    func transferUserInfo(_ userInfo: [String: String]) throws

    /// Replaces the application context (latest value wins); throws when refused.
    func updateApplicationContext(_ applicationContext: [String: String]) throws
}

extension WCSessionProviding {
    /// nil: the session cannot tell whether the counterpart's device is on.
    public var isCounterpartDeviceOn: Bool? { nil }
}

/// Whether a session is activated: Apple's `WCSessionActivationState`, without the framework.
public enum SessionActivationState: Int, Sendable, Hashable, CustomStringConvertible {
    /// Not activated yet, or deactivated.
    case notActivated = 0
    /// Activated before, now stopping.
    case inactive = 1
    /// Ready to send and receive.
    case activated = 2

    /// `notActivated`, `inactive` or `activated`.
    public var description: String {
        switch self {
        case .notActivated: "notActivated"
        case .inactive: "inactive"
        case .activated: "activated"
        }
    }
}

/// What a session reports to the layer, in the order it happened.
public enum SessionEvent: Sendable {
    /// Activation finished: `error` is nil when the session is activated.
    case activationCompleted(SessionActivationState, error: (any Error)?)
    /// The session became inactive or was deactivated.
    case deactivated
    /// `isReachable` (or the counterpart's installation) changed; read the session for the new values.
    case stateChanged
    /// A live message arrived; `reply` is nil when the sender does not wait for an answer. Call it
    /// at most once.
    case message([String: String], reply: (@Sendable ([String: String]) -> Void)?)
    /// A userInfo transfer arrived.
    case userInfo([String: String])
    /// A new application context arrived.
    case applicationContext([String: String])
}
