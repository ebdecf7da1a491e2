import WatchPairWire

/// A snapshot of one side's session, as `wcctl status` shows it.
public struct EngineStatus: Sendable, Hashable, Codable {
    public var role: Role
    /// The engine is serving (activated) or not yet / no longer.
    public var activated: Bool
    public var launch: LaunchMode
    /// `isReachable` (docs/Lifecycle.md).
    public var reachable: Bool
    /// `isPaired`: a peer is configured.
    public var paired: Bool
    /// `isWatchAppInstalled` / `isCompanionAppInstalled`: the peer app is installed (``WatchState``: its
    /// installation record and its socket unit's enablement). Stays true while its device is off.
    public var peerInstalled: Bool
    /// Something listens on the peer's link socket (probed; a leftover file does not count), or the link
    /// is up: false while the peer's device is off.
    public var peerListening = false
    /// True while `installedFlapping` shows the peer app not installed (``peerInstalled`` false): readers
    /// that probe the peer themselves (`WCSession`) follow it. Nil (absent) otherwise.
    public var peerInstallationHidden: Bool?
    /// This app is installed (`wcctl uninstall` / `install`).
    public var installed = true
    /// `isComplicationEnabled` (phone): the watch app is installed and its complication enabled.
    public var peerComplicationEnabled = false
    /// This (watch) app's complication is enabled (`wcctl --side watch complication enable`).
    public var complicationEnabled = false
    /// `remainingComplicationUserInfoTransfers` (phone): complication transfers left today; 0 on the watch
    /// and while the watch app's complication is not enabled.
    public var complicationTransfersRemaining = 0
    /// The enablement of the peer's socket unit as systemd reports it; nil when not known (not under systemd).
    public var peerUnitFileState: UnitFileState?
    /// The peer app's process is running.
    public var peerRunning: Bool
    /// Link state: `connected`, `connecting`, `disconnected`, `disconnected: timed out`.
    public var link: String
    /// How the peer was launched, when connected.
    public var peerLaunch: LaunchMode?
    /// Live messages in flight: calls of this side waiting for their outcome, and the peer's messages
    /// the app is handling.
    public var messagesInFlight: Int
    /// userInfo transfers accepted and not yet acknowledged by the peer.
    public var outstandingTransfers: Int
    /// Received userInfo transfers the app has not taken yet.
    public var inboxPending: Int
    /// Version of the context this side last sent (0: never).
    public var contextSentVersion: UInt64
    /// Newest sent-context version the peer has acknowledged.
    public var contextAckedVersion: UInt64
    /// Version of the context last received from the peer (0: none).
    public var contextReceivedVersion: UInt64
    /// File transfers accepted and not yet ended by the peer.
    public var outstandingFiles = 0
    /// A file from the peer is arriving on an open link (partly held here).
    public var receivingFile = false

    /// Nothing outstanding: no userInfo transfer or file waits for the peer, and the peer holds the newest
    /// context sent.
    public var isDrained: Bool {
        outstandingTransfers == 0 && outstandingFiles == 0 && contextSentVersion <= contextAckedVersion
    }

    /// A phone switching away from this watch may deactivate (docs/Watches.md): nothing is left to deliver,
    /// or it cannot be delivered now (nothing listens for the watch and the link is down, or its app is not
    /// installed). `listening` and `installed` are the peer's as the caller last saw them.
    public func drainedOrUndeliverable(listening: Bool, installed: Bool) -> Bool {
        isDrained || !(listening || reachable) || !installed
    }

    /// No link activity: drained, no live message in flight, and no link being opened.
    public var isIdle: Bool {
        isDrained && messagesInFlight == 0 && link != LinkState.connecting.description
    }
}
