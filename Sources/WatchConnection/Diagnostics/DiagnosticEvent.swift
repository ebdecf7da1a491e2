import Foundation

/// Everything the layer reports: the reliability guide's cases, plus the queue and exactly-once ones.
///
/// Each is also logged through swift-log with metadata `WC_EVENT` (`name`) and `WC_REQUEST_TYPE`,
/// `WC_REQUEST_ID`, `WC_ATTEMPT`, `WC_STRATEGY`, `WC_HEALTH`, `WC_ERROR_CODE` where they apply, so a
/// journald log handler files them as journal fields (docs/WatchConnection.md, "Streams and events").
public enum DiagnosticEvent: Sendable, Hashable {
    /// The session activated.
    case sessionActivated
    /// The session became inactive or deactivated.
    case sessionDeactivated
    /// Reachability changed to this.
    case reachabilityChanged(Bool)
    /// A request of `type` was answered after `duration` (from its send).
    case messageSent(type: String, duration: Duration)
    /// An attempt of a request of `type` failed; `willRetry` says whether another attempt follows.
    case deliveryFailed(type: String, error: WatchConnectionError, willRetry: Bool)
    /// A request took a fallback channel.
    case fallbackUsed(from: DeliveryMethod, to: DeliveryMethod)
    /// A request of `type` was queued; `size` is the queue's length after it.
    case requestQueued(type: String, size: Int)
    /// The queue was flushed: `count` requests were sent.
    case queueFlushed(count: Int)
    /// A queued request of `type` expired unsent.
    case requestExpired(type: String, id: UUID)
    /// The queue was full: the oldest request (of `type`) was dropped.
    case requestDropped(type: String, id: UUID)
    /// A request of `type` arrived by userInfo or context before its handler registered: it is held
    /// (persisted) and runs once a handler for `type` registers.
    case requestHeld(type: String, id: UUID)
    /// A repeat of request `id` was answered with its recorded response, not run again.
    case duplicateSuppressed(type: String, id: UUID)
    /// The health changed.
    case healthChanged(from: SessionHealth, to: SessionHealth)
    /// A recovery suggestion was made.
    case recoverySuggested(RecoverySuggestion)
    /// `attemptRecovery()` started.
    case recoveryAttempted
    /// `attemptRecovery()` reached the peer.
    case recoverySucceeded
    /// `attemptRecovery()` failed.
    case recoveryFailed(error: WatchConnectionError)
    /// A persisted file (the queue, or the recorded responses) could not be read; it was renamed to
    /// `path` and its content started empty.
    case storageFileSetAside(path: String, reason: String)

    /// The event's name in the journal's `WC_EVENT`.
    public var name: String {
        switch self {
        case .sessionActivated: "sessionActivated"
        case .sessionDeactivated: "sessionDeactivated"
        case .reachabilityChanged: "reachabilityChanged"
        case .messageSent: "requestSent"
        case .deliveryFailed: "deliveryFailed"
        case .fallbackUsed: "fallbackUsed"
        case .requestQueued: "requestQueued"
        case .queueFlushed: "queueFlushed"
        case .requestExpired: "requestExpired"
        case .requestDropped: "requestDropped"
        case .requestHeld: "requestHeld"
        case .duplicateSuppressed: "duplicateSuppressed"
        case .healthChanged: "healthChanged"
        case .recoverySuggested: "recoverySuggested"
        case .recoveryAttempted: "recoveryAttempted"
        case .recoverySucceeded: "recoverySucceeded"
        case .recoveryFailed: "recoveryFailed"
        case .storageFileSetAside: "storageFileSetAside"
        }
    }
}
