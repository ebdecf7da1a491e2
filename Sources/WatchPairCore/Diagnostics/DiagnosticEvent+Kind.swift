extension DiagnosticEvent {
    /// Every event kind, with a fixed 128-bit `MESSAGE_ID` each (catalogued in systemd/watchpair.catalog).
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// The engine opened its store and started serving (the session is activated).
        case sessionActivated
        /// The peer became reachable or unreachable for live messages.
        case reachabilityChanged
        /// A link to the peer completed its handshake.
        case peerConnected
        /// An established link to the peer closed.
        case peerDisconnected
        /// Connecting to the peer keeps failing; background content stays queued.
        case peerUnavailable
        /// A live message was sent and answered (reply or delivery confirmation).
        case messageSent
        /// A live message was received and handed to the app.
        case messageReceived
        /// A live message failed (not reachable, timeout, no handler, link lost).
        case messageFailed
        /// A userInfo transfer was accepted and made durable at the sender.
        case userInfoQueued
        /// A userInfo transfer was durably received (receiver side).
        case userInfoDelivered
        /// The peer acknowledged a userInfo transfer; the sender's didFinish fires.
        case userInfoFinished
        /// An outstanding userInfo transfer was cancelled.
        case userInfoCancelled
        /// A file transfer was accepted: the sender's store holds its own durable copy (WC_FILE_NAME, WC_FILE_BYTES).
        case fileQueued
        /// The receiver acknowledged another tenth (at least a MiB) of the file in flight (WC_FILE_OFFSET).
        case fileProgress
        /// A whole file arrived and its checksum matched (receiver side); it waits for the app.
        case fileReceived
        /// The receiver has the whole, verified file; the sender's didFinish fires.
        case fileFinished
        /// An outstanding file transfer was cancelled by the sending app (both sides report it).
        case fileCancelled
        /// A file transfer was refused or failed, with its code: 7008 unreadable, 7014 corrupt at the end,
        /// 7015 no room at the receiver (the sender resumes later).
        case fileFailed
        /// A payload was refused before anything was queued: too large (7009) or not a property list (7010).
        case payloadRejected
        /// A transfer was refused because a bounded queue is full.
        case queueFull
        /// The application context was replaced (sender side).
        case contextUpdated
        /// A newer application context was received (receiver side).
        case contextReceived
        /// A malformed, corrupt or unexpected frame was rejected and its connection closed.
        case frameRejected
        /// A handshake failed (wrong pair, wrong role, wrong version, timeout, credentials).
        case handshakeFailed
        /// The app was started by socket activation to receive content.
        case backgroundLaunch
        /// The app was started in the foreground.
        case foregroundLaunch
        /// The user opened a background-launched app (`wcctl open`, `systemctl reload`): it now runs in the
        /// foreground, reachable, and no longer exits when idle.
        case appOpened
        /// A background-launched app exited after being idle.
        case idleExit
        /// The peer stopped answering keep-alives; its link was closed.
        case peerUnresponsive
        /// A control client was refused: not root, the daemon's user or a member of the socket's group.
        case controlClientRefused
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
        /// This app was uninstalled or installed again (`wcctl uninstall` / `install`).
        case installationChanged
        /// The peer app became installed or not installed (its record, its socket unit's enablement):
        /// `sessionWatchStateDidChange`.
        case watchStateChanged
        /// Content for a peer app that is not installed was refused at once (7006 / 7018); nothing queued.
        case contentRefused
        /// A complication transfer (`transferCurrentComplicationUserInfo`) was accepted and made durable,
        /// counted against the day's budget (WC_TRANSFER_ID, WC_SEQ).
        case complicationQueued
        /// The day's complication budget was used up: the transfer was accepted and goes as a plain
        /// userInfo (`isCurrentComplicationInfo` false), as Apple does.
        case complicationBudgetExhausted

        /// The journald `MESSAGE_ID` of this kind.
        public var messageID: String {
            switch self {
            case .sessionActivated: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b201"
            case .reachabilityChanged: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b202"
            case .peerConnected: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b203"
            case .peerDisconnected: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b204"
            case .peerUnavailable: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b205"
            case .messageSent: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b206"
            case .messageReceived: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b207"
            case .messageFailed: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b208"
            case .userInfoQueued: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b209"
            case .userInfoDelivered: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b20a"
            case .userInfoFinished: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b20b"
            case .userInfoCancelled: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b20c"
            case .fileQueued: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b230"
            case .fileProgress: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b231"
            case .fileReceived: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b232"
            case .fileFinished: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b233"
            case .fileCancelled: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b234"
            case .fileFailed: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b235"
            case .queueFull: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b20d"
            case .contextUpdated: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b20e"
            case .contextReceived: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b20f"
            case .frameRejected: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b210"
            case .handshakeFailed: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b211"
            case .backgroundLaunch: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b212"
            case .foregroundLaunch: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b213"
            case .idleExit: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b214"
            case .appOpened: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b227"
            case .peerUnresponsive: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b215"
            case .payloadRejected: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b216"
            case .controlClientRefused: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b217"
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
            case .syncSent: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b240"
            case .syncConfirmed: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b241"
            case .syncReceived: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b242"
            case .syncRequested: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b243"
            case .syncNotSent: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b244"
            case .syncIgnored: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b245"
            case .syncUnknownKey: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b246"
            case .syncFailed: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b247"
            case .installationChanged: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b260"
            case .watchStateChanged: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b261"
            case .contentRefused: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b262"
            case .complicationQueued: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b263"
            case .complicationBudgetExhausted: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b264"
            }
        }

        /// The priority an event of this kind is logged at unless the producer says otherwise.
        public var defaultSeverity: Severity {
            switch self {
            case .fileFailed: .warning
            case .frameRejected, .handshakeFailed, .queueFull, .peerUnresponsive, .controlClientRefused: .warning
            case .requestExpired, .requestDropped, .recoveryFailed, .storageFileSetAside: .warning
            case .syncNotSent, .syncUnknownKey, .syncFailed: .warning
            case .syncIgnored: .notice
            case .contentRefused, .installationChanged, .watchStateChanged: .notice
            case .complicationBudgetExhausted: .notice
            case .messageFailed, .peerUnavailable, .payloadRejected: .notice
            case .deliveryFailed, .healthChanged, .recoverySuggested: .notice
            case .userInfoQueued, .userInfoDelivered, .userInfoFinished, .messageSent, .messageReceived: .debug
            case .requestSent, .duplicateSuppressed: .debug
            default: .info
            }
        }
    }
}
