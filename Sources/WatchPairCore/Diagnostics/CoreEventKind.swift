/// The engine's and the host's own event kinds (docs/Systemd.md, "journald"): the channels, the link, the app's
/// lifecycle and installation. The reliability layer's and keyed sync's kinds belong to their own
/// vocabularies, in the daemons' face of those layers; this one knows nothing of them.
public enum CoreEventKind: String, JournalEventKind {
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
    /// The peer's answer to a live message came after the call had ended (its timeout passed, its caller
    /// stopped waiting) and was dropped: the app's answer was late, not missing (WC_SEQ).
    case messageAnswerDropped
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
    /// A quirk of real devices was injected (docs/Quirks.md): `WC_QUIRK` names it; the message or transfer
    /// it hit is in `WC_SEQ` / `WC_TRANSFER_ID` where there is one.
    case quirkInjected
    /// The phone switched to another of its watches (docs/Watches.md): the session is inactive until the
    /// old watch's queue drains or its link is gone, then the new watch's engine starts.
    case watchSwitched
    /// A watch was unpaired: what the phone had queued for it was dropped (the message says how many items).
    case watchUnpaired
    /// A watch was paired again.
    case watchPaired

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
        case .messageAnswerDropped: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b228"
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
        case .installationChanged: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b260"
        case .watchStateChanged: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b261"
        case .contentRefused: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b262"
        case .complicationQueued: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b263"
        case .complicationBudgetExhausted: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b264"
        case .quirkInjected: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b270"
        case .watchSwitched: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b265"
        case .watchUnpaired: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b266"
        case .watchPaired: "5e1d0a3c6f7b4b2a9c1e8d7f60a1b267"
        }
    }

    /// The priority an event of this kind is logged at unless the producer says otherwise.
    public var priority: DiagnosticEvent.Severity {
        switch self {
        case .fileFailed: .warning
        case .frameRejected, .handshakeFailed, .queueFull, .peerUnresponsive, .controlClientRefused: .warning
        case .contentRefused, .installationChanged, .watchStateChanged: .notice
        case .complicationBudgetExhausted, .quirkInjected, .watchSwitched, .watchUnpaired, .watchPaired: .notice
        case .messageFailed, .peerUnavailable, .payloadRejected: .notice
        case .userInfoQueued, .userInfoDelivered, .userInfoFinished, .messageSent, .messageReceived: .debug
        default: .info
        }
    }

    /// ``DiagnosticEvent``'s own fields: `WC_CHANNEL`, `WC_TRANSFER_ID`, `WC_FILE_NAME`, `WC_FILE_BYTES`,
    /// `WC_FILE_OFFSET`, `WC_SEQ`, `WC_ERROR_CODE`, `WC_DURATION_US`.
    public static let storedFields: [EventField.Name] = [
        .channel, .transferId, .fileName, .fileBytes, .fileOffset, .seq, .errorCode, .durationUs,
    ]

    /// Every field of this vocabulary: ``storedFields`` and `WC_QUIRK`, which only `quirkInjected` carries
    /// (in ``DiagnosticEvent/fields``, like another vocabulary's).
    public static let fields: [EventField.Name] = storedFields + [.quirk]
}

extension EventField.Name {
    /// `WC_CHANNEL`: ``DiagnosticEvent/channel``.
    public static let channel = Self("channel")
    /// `WC_TRANSFER_ID`: ``DiagnosticEvent/transferId``.
    public static let transferId = Self("transferId")
    /// `WC_FILE_NAME`: ``DiagnosticEvent/FileFields/name``.
    public static let fileName = Self("fileName")
    /// `WC_FILE_BYTES`: ``DiagnosticEvent/FileFields/bytes``.
    public static let fileBytes = Self("fileBytes")
    /// `WC_FILE_OFFSET`: ``DiagnosticEvent/FileFields/offset``.
    public static let fileOffset = Self("fileOffset")
    /// `WC_SEQ`: ``DiagnosticEvent/seq``.
    public static let seq = Self("seq")
    /// `WC_ERROR_CODE`: ``DiagnosticEvent/errorCode``.
    public static let errorCode = Self("errorCode")
    /// `WC_DURATION_US`: ``DiagnosticEvent/duration`` in microseconds.
    public static let durationUs = Self("durationUs")
    /// `WC_QUIRK`: the quirk a `quirkInjected` event reports (its name, e.g. `lateReply`).
    public static let quirk = Self("quirk")
}

extension DiagnosticEvent.Kind {
    /// ``CoreEventKind/sessionActivated``.
    public static let sessionActivated = Self(CoreEventKind.sessionActivated)
    /// ``CoreEventKind/reachabilityChanged``.
    public static let reachabilityChanged = Self(CoreEventKind.reachabilityChanged)
    /// ``CoreEventKind/peerConnected``.
    public static let peerConnected = Self(CoreEventKind.peerConnected)
    /// ``CoreEventKind/peerDisconnected``.
    public static let peerDisconnected = Self(CoreEventKind.peerDisconnected)
    /// ``CoreEventKind/peerUnavailable``.
    public static let peerUnavailable = Self(CoreEventKind.peerUnavailable)
    /// ``CoreEventKind/messageSent``.
    public static let messageSent = Self(CoreEventKind.messageSent)
    /// ``CoreEventKind/messageReceived``.
    public static let messageReceived = Self(CoreEventKind.messageReceived)
    /// ``CoreEventKind/messageFailed``.
    public static let messageFailed = Self(CoreEventKind.messageFailed)
    /// ``CoreEventKind/messageAnswerDropped``.
    public static let messageAnswerDropped = Self(CoreEventKind.messageAnswerDropped)
    /// ``CoreEventKind/userInfoQueued``.
    public static let userInfoQueued = Self(CoreEventKind.userInfoQueued)
    /// ``CoreEventKind/userInfoDelivered``.
    public static let userInfoDelivered = Self(CoreEventKind.userInfoDelivered)
    /// ``CoreEventKind/userInfoFinished``.
    public static let userInfoFinished = Self(CoreEventKind.userInfoFinished)
    /// ``CoreEventKind/userInfoCancelled``.
    public static let userInfoCancelled = Self(CoreEventKind.userInfoCancelled)
    /// ``CoreEventKind/fileQueued``.
    public static let fileQueued = Self(CoreEventKind.fileQueued)
    /// ``CoreEventKind/fileProgress``.
    public static let fileProgress = Self(CoreEventKind.fileProgress)
    /// ``CoreEventKind/fileReceived``.
    public static let fileReceived = Self(CoreEventKind.fileReceived)
    /// ``CoreEventKind/fileFinished``.
    public static let fileFinished = Self(CoreEventKind.fileFinished)
    /// ``CoreEventKind/fileCancelled``.
    public static let fileCancelled = Self(CoreEventKind.fileCancelled)
    /// ``CoreEventKind/fileFailed``.
    public static let fileFailed = Self(CoreEventKind.fileFailed)
    /// ``CoreEventKind/payloadRejected``.
    public static let payloadRejected = Self(CoreEventKind.payloadRejected)
    /// ``CoreEventKind/queueFull``.
    public static let queueFull = Self(CoreEventKind.queueFull)
    /// ``CoreEventKind/contextUpdated``.
    public static let contextUpdated = Self(CoreEventKind.contextUpdated)
    /// ``CoreEventKind/contextReceived``.
    public static let contextReceived = Self(CoreEventKind.contextReceived)
    /// ``CoreEventKind/frameRejected``.
    public static let frameRejected = Self(CoreEventKind.frameRejected)
    /// ``CoreEventKind/handshakeFailed``.
    public static let handshakeFailed = Self(CoreEventKind.handshakeFailed)
    /// ``CoreEventKind/backgroundLaunch``.
    public static let backgroundLaunch = Self(CoreEventKind.backgroundLaunch)
    /// ``CoreEventKind/foregroundLaunch``.
    public static let foregroundLaunch = Self(CoreEventKind.foregroundLaunch)
    /// ``CoreEventKind/appOpened``.
    public static let appOpened = Self(CoreEventKind.appOpened)
    /// ``CoreEventKind/idleExit``.
    public static let idleExit = Self(CoreEventKind.idleExit)
    /// ``CoreEventKind/peerUnresponsive``.
    public static let peerUnresponsive = Self(CoreEventKind.peerUnresponsive)
    /// ``CoreEventKind/controlClientRefused``.
    public static let controlClientRefused = Self(CoreEventKind.controlClientRefused)
    /// ``CoreEventKind/installationChanged``.
    public static let installationChanged = Self(CoreEventKind.installationChanged)
    /// ``CoreEventKind/watchStateChanged``.
    public static let watchStateChanged = Self(CoreEventKind.watchStateChanged)
    /// ``CoreEventKind/contentRefused``.
    public static let contentRefused = Self(CoreEventKind.contentRefused)
    /// ``CoreEventKind/complicationQueued``.
    public static let complicationQueued = Self(CoreEventKind.complicationQueued)
    /// ``CoreEventKind/complicationBudgetExhausted``.
    public static let complicationBudgetExhausted = Self(CoreEventKind.complicationBudgetExhausted)
    /// ``CoreEventKind/quirkInjected``.
    public static let quirkInjected = Self(CoreEventKind.quirkInjected)
    /// ``CoreEventKind/watchSwitched``.
    public static let watchSwitched = Self(CoreEventKind.watchSwitched)
    /// ``CoreEventKind/watchUnpaired``.
    public static let watchUnpaired = Self(CoreEventKind.watchUnpaired)
    /// ``CoreEventKind/watchPaired``.
    public static let watchPaired = Self(CoreEventKind.watchPaired)
}
