import WatchPairCore
import WatchPairWire

/// What the session knows of its counterpart between refreshes: whether its app is installed and
/// whether it is reachable. The properties (`isReachable`, `isWatchAppInstalled`) read it without blocking.
struct SessionSnapshot: Equatable, Sendable {
    var counterpartInstalled = false
    var reachable = false
    /// Phone side: the watch app's complication is enabled (`isComplicationEnabled`).
    var complicationEnabled = false

    /// A delegate callback a change of the snapshot produces.
    enum Callback: Equatable, Sendable {
        /// `sessionWatchStateDidChange` (phone side).
        case watchStateDidChange
        /// `sessionCompanionAppInstalledDidChange` (watch side).
        case companionAppInstalledDidChange
        /// `sessionReachabilityDidChange`.
        case reachabilityDidChange
    }

    /// The callbacks moving from this snapshot to `new` produces on `role`'s side, in the order they are made.
    func callbacks(to new: SessionSnapshot, role: Role) -> [Callback] {
        var callbacks: [Callback] = []
        if counterpartInstalled != new.counterpartInstalled {
            callbacks.append(role == .phone ? .watchStateDidChange : .companionAppInstalledDidChange)
        } else if role == .phone, complicationEnabled != new.complicationEnabled {
            callbacks.append(.watchStateDidChange)
        }
        if reachable != new.reachable { callbacks.append(.reachabilityDidChange) }
        return callbacks
    }

    /// The snapshot for an engine status and a fresh look at the counterpart: installed unless its
    /// installation record or its socket unit says otherwise (``WatchState``); a counterpart whose
    /// device is off (nothing listens) is still installed.
    init(status: EngineStatus, presence: PeerPresence) {
        self.init(link: status.link, reachable: status.reachable, presence: presence)
        // `installedFlapping` (docs/Quirks.md): the app reads the counterpart not installed for a while.
        if status.peerInstallationHidden == true {
            counterpartInstalled = false
            complicationEnabled = false
            reachable = false
        }
    }

    /// The snapshot for a link state (`EngineStatus.link`), the engine's reachability and a presence probe.
    init(link: String, reachable: Bool, presence: PeerPresence) {
        counterpartInstalled = presence.watchState.installed
        complicationEnabled = presence.watchState.complicationEnabled
        self.reachable = reachable && counterpartInstalled
    }

    /// Whether the counterpart's device is on (`WCSession.isCounterpartListening`): a fresh probe found
    /// something listening for it, or it is reachable. Kept beside the snapshot, not in it: the snapshot
    /// holds what makes delegate callbacks, and Apple has none for this.
    static func counterpartListening(status: EngineStatus, presence: PeerPresence) -> Bool {
        presence.listening || status.reachable
    }

    init(counterpartInstalled: Bool = false, reachable: Bool = false, complicationEnabled: Bool = false) {
        self.counterpartInstalled = counterpartInstalled
        self.reachable = reachable
        self.complicationEnabled = complicationEnabled
    }
}
