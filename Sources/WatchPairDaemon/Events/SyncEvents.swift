import KeyedSync
import WatchPairCore
import WatchPairWire

/// Keyed sync's events as the daemon's diagnostic events (`syncSent`, `syncReceived`,
/// `syncRequested`, and how a value is held back), of the kinds of ``SyncEventKind``: journald with a
/// `MESSAGE_ID` each (systemd/watchpair.catalog), `WC_SYNC_KEY` and `WC_SYNC_REVISION`, stderr, and
/// `wcctl events`.
enum SyncEvents {
    static func diagnostic(_ event: KeyedSyncEvent, role: Role) -> WatchPairCore.DiagnosticEvent {
        typealias Fields = WatchPairCore.DiagnosticEvent.RequestFields
        let made: (WatchPairCore.DiagnosticEvent.Kind, String, Fields)
        switch event {
        case .sent(let key, let revision):
            made = (.syncSent, "sync sent \(key) at revision \(revision)", Fields(syncKey: key, syncRevision: "\(revision)"))
        case .confirmed(let key, let revision):
            made = (.syncConfirmed, "sync of \(key) at revision \(revision) confirmed by the peer", Fields(syncKey: key, syncRevision: "\(revision)"))
        case .received(let key, let revision):
            made = (.syncReceived, "sync received \(key) at revision \(revision)", Fields(syncKey: key, syncRevision: "\(revision)"))
        case .requested(let side):
            made = (.syncRequested, "sync snapshot requested by the \(side.rawValue) app", Fields())
        case .notSent(let key, let reason):
            made = (.syncNotSent, "sync of \(key) not sent: \(reason)", Fields(syncKey: key))
        case .ignoredOlder(let key, let received, let held):
            made = (.syncIgnored, "sync of \(key) at \(received) ignored: \(held) is held", Fields(syncKey: key, syncRevision: "\(received)"))
        case .notShared(let key):
            made = (.syncIgnored, "sync received \(key), which this app does not share: ignored", Fields(syncKey: key))
        case .unknownKey(let key, let revision):
            made = (.syncUnknownKey, "sync received unregistered key \(key) at \(revision): kept, not applied", Fields(syncKey: key, syncRevision: "\(revision)"))
        case .unconfirmed(let reason):
            made = (.syncFailed, "sync snapshot not confirmed: \(reason)", Fields())
        case .storageFailed(let reason):
            made = (.syncFailed, "sync ledger: \(reason)", Fields())
        }
        return WatchPairCore.DiagnosticEvent(made.0, role: role, made.1, request: made.2)
    }
}
