import WatchPairCore

/// The reliability layer's event kinds (docs/WatchConnection.md), as the daemons log them: one
/// journal entry per event of the layer (``LayerEvents``), with a `MESSAGE_ID` each in systemd/watchpair.catalog.
public enum LayerEventKind: String, JournalEventKind {
    /// A typed request of the reliability layer was answered (WC_REQUEST_TYPE, WC_DURATION_US).
    case requestSent
    /// An attempt of a typed request failed; the message says whether it is retried.
    case deliveryFailed
    /// A typed request took its strategy's fallback channel (WC_STRATEGY).
    case fallbackUsed
    /// A typed request waits in the persisted request queue.
    case requestQueued
    /// Queued typed requests were sent, oldest first.
    case queueFlushed
    /// A queued typed request waited past the queue's expiry and was removed.
    case requestExpired
    /// The request queue was full: its oldest request was dropped.
    case requestDropped
    /// A repeat of a typed request was answered from its recorded response, not run again.
    case duplicateSuppressed
    /// A typed request came by userInfo or context before its handler registered: it is held.
    case requestHeld
    /// The reliability layer's health changed (WC_HEALTH).
    case healthChanged
    /// The reliability layer made a recovery suggestion.
    case recoverySuggested
    /// The reliability layer started a recovery.
    case recoveryAttempted
    /// A recovery reached the peer.
    case recoverySucceeded
    /// A recovery did not reach the peer.
    case recoveryFailed
    /// An unreadable file of the reliability layer was set aside; it started empty.
    case storageFileSetAside

    /// The journald `MESSAGE_ID` of this kind.
    public var messageID: String {
        switch self {
        case .requestSent: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b218"
        case .deliveryFailed: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b219"
        case .fallbackUsed: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b21a"
        case .requestQueued: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b21b"
        case .queueFlushed: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b21c"
        case .requestExpired: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b21d"
        case .requestDropped: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b21e"
        case .duplicateSuppressed: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b21f"
        case .healthChanged: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b220"
        case .recoverySuggested: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b221"
        case .recoveryAttempted: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b222"
        case .recoverySucceeded: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b223"
        case .recoveryFailed: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b224"
        case .storageFileSetAside: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b225"
        case .requestHeld: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b226"
        }
    }

    /// The priority an event of this kind is logged at unless the producer says otherwise.
    public var priority: DiagnosticEvent.Severity {
        switch self {
        case .requestExpired, .requestDropped, .recoveryFailed, .storageFileSetAside: .warning
        case .deliveryFailed, .healthChanged, .recoverySuggested: .notice
        case .requestSent, .duplicateSuppressed: .debug
        case .fallbackUsed, .requestQueued, .queueFlushed, .requestHeld, .recoveryAttempted, .recoverySucceeded: .info
        }
    }

    /// `WC_REQUEST_TYPE`, `WC_REQUEST_ID`, `WC_ATTEMPT`, `WC_STRATEGY`, `WC_HEALTH`, each where it applies
    /// (``DiagnosticEvent/RequestFields``).
    public static let fields: [EventField.Name] = [.requestType, .requestId, .attempt, .strategy, .health]
}

extension EventField.Name {
    /// `WC_REQUEST_TYPE`: a typed request's wire name.
    public static let requestType = Self("requestType")
    /// `WC_REQUEST_ID`: a typed request's id.
    public static let requestId = Self("requestId")
    /// `WC_ATTEMPT`: the live-message attempt (1 for the first) an answer or failure came from.
    public static let attempt = Self("attempt")
    /// `WC_STRATEGY`: a delivery strategy or channel.
    public static let strategy = Self("strategy")
    /// `WC_HEALTH`: the layer's health after the event.
    public static let health = Self("health")
}

extension DiagnosticEvent.Kind {
    /// ``LayerEventKind/requestSent``.
    public static let requestSent = Self(LayerEventKind.requestSent)
    /// ``LayerEventKind/deliveryFailed``.
    public static let deliveryFailed = Self(LayerEventKind.deliveryFailed)
    /// ``LayerEventKind/fallbackUsed``.
    public static let fallbackUsed = Self(LayerEventKind.fallbackUsed)
    /// ``LayerEventKind/requestQueued``.
    public static let requestQueued = Self(LayerEventKind.requestQueued)
    /// ``LayerEventKind/queueFlushed``.
    public static let queueFlushed = Self(LayerEventKind.queueFlushed)
    /// ``LayerEventKind/requestExpired``.
    public static let requestExpired = Self(LayerEventKind.requestExpired)
    /// ``LayerEventKind/requestDropped``.
    public static let requestDropped = Self(LayerEventKind.requestDropped)
    /// ``LayerEventKind/duplicateSuppressed``.
    public static let duplicateSuppressed = Self(LayerEventKind.duplicateSuppressed)
    /// ``LayerEventKind/requestHeld``.
    public static let requestHeld = Self(LayerEventKind.requestHeld)
    /// ``LayerEventKind/healthChanged``.
    public static let healthChanged = Self(LayerEventKind.healthChanged)
    /// ``LayerEventKind/recoverySuggested``.
    public static let recoverySuggested = Self(LayerEventKind.recoverySuggested)
    /// ``LayerEventKind/recoveryAttempted``.
    public static let recoveryAttempted = Self(LayerEventKind.recoveryAttempted)
    /// ``LayerEventKind/recoverySucceeded``.
    public static let recoverySucceeded = Self(LayerEventKind.recoverySucceeded)
    /// ``LayerEventKind/recoveryFailed``.
    public static let recoveryFailed = Self(LayerEventKind.recoveryFailed)
    /// ``LayerEventKind/storageFileSetAside``.
    public static let storageFileSetAside = Self(LayerEventKind.storageFileSetAside)
}
