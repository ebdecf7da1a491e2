import WatchPairCore

/// Keyed sync's event kinds (docs/KeyedSync.md), as the daemons log them: one journal entry per
/// event of keyed sync (``SyncEvents``), with a `MESSAGE_ID` each in systemd/watchpair.catalog.
public enum SyncEventKind: String, JournalEventKind {
    /// Keyed sync sent a key in a snapshot (WC_SYNC_KEY, WC_SYNC_REVISION).
    case syncSent
    /// The peer confirmed a synced key: it no longer needs a sync.
    case syncConfirmed
    /// A newer value of a synced key arrived and is held.
    case syncReceived
    /// A keyed-sync snapshot was asked for (the launch-order-safe handshake).
    case syncRequested
    /// A change of a synced key was not sent (too large for automaticSmall).
    case syncNotSent
    /// A synced key's value arrived that is older than the one held, or not shared here: ignored.
    case syncIgnored
    /// The peer sent a key this app has not registered: kept, not applied.
    case syncUnknownKey
    /// A keyed-sync snapshot was not confirmed, or the sync ledger could not be written or read.
    case syncFailed

    /// The journald `MESSAGE_ID` of this kind.
    public var messageID: String {
        switch self {
        case .syncSent: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b240"
        case .syncConfirmed: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b241"
        case .syncReceived: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b242"
        case .syncRequested: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b243"
        case .syncNotSent: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b244"
        case .syncIgnored: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b245"
        case .syncUnknownKey: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b246"
        case .syncFailed: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b247"
        }
    }

    /// The priority an event of this kind is logged at unless the producer says otherwise.
    public var priority: DiagnosticEvent.Severity {
        switch self {
        case .syncNotSent, .syncUnknownKey, .syncFailed: .warning
        case .syncIgnored: .notice
        case .syncSent, .syncConfirmed, .syncReceived, .syncRequested: .info
        }
    }

    /// `WC_SYNC_KEY`, `WC_SYNC_REVISION`, each where it applies (``DiagnosticEvent/RequestFields``).
    public static let fields: [EventField.Name] = [.syncKey, .syncRevision]
}

extension EventField.Name {
    /// `WC_SYNC_KEY`: a synced key.
    public static let syncKey = Self("syncKey")
    /// `WC_SYNC_REVISION`: a synced key's revision, e.g. `7@phone`.
    public static let syncRevision = Self("syncRevision")
}

extension DiagnosticEvent.Kind {
    /// ``SyncEventKind/syncSent``.
    public static let syncSent = Self(SyncEventKind.syncSent)
    /// ``SyncEventKind/syncConfirmed``.
    public static let syncConfirmed = Self(SyncEventKind.syncConfirmed)
    /// ``SyncEventKind/syncReceived``.
    public static let syncReceived = Self(SyncEventKind.syncReceived)
    /// ``SyncEventKind/syncRequested``.
    public static let syncRequested = Self(SyncEventKind.syncRequested)
    /// ``SyncEventKind/syncNotSent``.
    public static let syncNotSent = Self(SyncEventKind.syncNotSent)
    /// ``SyncEventKind/syncIgnored``.
    public static let syncIgnored = Self(SyncEventKind.syncIgnored)
    /// ``SyncEventKind/syncUnknownKey``.
    public static let syncUnknownKey = Self(SyncEventKind.syncUnknownKey)
    /// ``SyncEventKind/syncFailed``.
    public static let syncFailed = Self(SyncEventKind.syncFailed)
}
