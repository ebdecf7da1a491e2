import Logging

/// What keyed sync reports (`syncSent`, `syncReceived`, `syncRequested`, and the ways a value
/// is held back). Each is also logged through swift-log with `WC_EVENT`, `WC_SYNC_KEY` and
/// `WC_SYNC_REVISION`, so a journald log handler files them as journal fields.
public enum KeyedSyncEvent: Sendable, Hashable {
    /// `key` at `revision` went out in a snapshot.
    case sent(key: String, revision: SyncRevision)
    /// The peer confirmed `key` at `revision`: it no longer needs a sync.
    case confirmed(key: String, revision: SyncRevision)
    /// A newer value of `key` arrived and is held.
    case received(key: String, revision: SyncRevision)
    /// The peer asked for a snapshot (the handshake), or this app asked the peer.
    case requested(by: SyncSide)
    /// A change of `key` was not sent, and why (e.g. too large for `.automaticSmall`).
    case notSent(key: String, reason: SyncBlock)
    /// An entry of `key` not newer than the held one arrived late, and was ignored.
    case ignoredOlder(key: String, received: SyncRevision, held: SyncRevision)
    /// The peer sent `key`, which this app has not registered: kept, not applied.
    case unknownKey(key: String, revision: SyncRevision)
    /// The peer sent `key`, which this app does not share: ignored.
    case notShared(key: String)
    /// A snapshot was not confirmed by the peer (it stays `needSync` and is retried with backoff while
    /// the peer is reachable, and when it next becomes reachable).
    case unconfirmed(reason: String)
    /// The ledger file could not be written (the change is held in memory) or was unreadable (set aside).
    case storageFailed(reason: String)

    /// The event's name in journald (`WC_EVENT`).
    public var name: String {
        switch self {
        case .sent: "syncSent"
        case .confirmed: "syncConfirmed"
        case .received: "syncReceived"
        case .requested: "syncRequested"
        case .notSent: "syncNotSent"
        case .ignoredOlder: "syncIgnored"
        case .unknownKey: "syncUnknownKey"
        case .notShared: "syncNotShared"
        case .unconfirmed: "syncUnconfirmed"
        case .storageFailed: "syncStorageFailed"
        }
    }

    init(_ note: SyncLedger.Note) {
        switch note {
        case .sent(let key, let revision): self = .sent(key: key, revision: revision)
        case .confirmed(let key, let revision): self = .confirmed(key: key, revision: revision)
        case .received(let key, let revision): self = .received(key: key, revision: revision)
        case .ignoredOlder(let key, let received, let held): self = .ignoredOlder(key: key, received: received, held: held)
        case .unknownKey(let key, let revision): self = .unknownKey(key: key, revision: revision)
        case .notShared(let key): self = .notShared(key: key)
        case .notSent(let key, let block): self = .notSent(key: key, reason: block)
        }
    }

    /// Warnings for what a person should look at; the rest is routine.
    var level: Logger.Level {
        switch self {
        case .notSent, .unknownKey, .storageFailed: .warning
        case .sent, .received, .requested, .confirmed: .info
        case .ignoredOlder, .notShared, .unconfirmed: .notice
        }
    }

    /// A sentence for `MESSAGE`.
    var sentence: String {
        switch self {
        case .sent(let key, let revision): "Sync sent \(key) at revision \(revision)"
        case .confirmed(let key, let revision): "Sync of \(key) at revision \(revision) confirmed by the peer"
        case .received(let key, let revision): "Sync received \(key) at revision \(revision)"
        case .requested(let side): "Sync snapshot requested by the \(side.rawValue) app"
        case .notSent(let key, let reason): "Sync of \(key) not sent: \(reason)"
        case .ignoredOlder(let key, let received, let held): "Sync of \(key) at \(received) ignored: \(held) is held"
        case .unknownKey(let key, let revision): "Sync received unregistered key \(key) at \(revision): kept, not applied"
        case .notShared(let key): "Sync received \(key), which this app does not share: ignored"
        case .unconfirmed(let reason): "Sync snapshot not confirmed: \(reason)"
        case .storageFailed(let reason): "Sync ledger storage failed: \(reason)"
        }
    }

    /// The journal fields that apply (docs/KeyedSync.md, "Events").
    var metadata: Logger.Metadata {
        var fields: Logger.Metadata = ["WC_EVENT": "\(name)"]
        switch self {
        case .sent(let key, let revision), .confirmed(let key, let revision), .received(let key, let revision),
             .unknownKey(let key, let revision):
            fields["WC_SYNC_KEY"] = "\(key)"
            fields["WC_SYNC_REVISION"] = "\(revision)"
        case .ignoredOlder(let key, let received, _):
            fields["WC_SYNC_KEY"] = "\(key)"
            fields["WC_SYNC_REVISION"] = "\(received)"
        case .notSent(let key, _), .notShared(let key):
            fields["WC_SYNC_KEY"] = "\(key)"
        case .requested, .unconfirmed, .storageFailed:
            break
        }
        return fields
    }
}
