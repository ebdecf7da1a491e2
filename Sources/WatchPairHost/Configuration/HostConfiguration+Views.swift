import WatchPairCore
import WatchPairTransport
import WatchPairWire

/// The configuration shaped like its keys (`paths.*`, `queues.*`, `timeouts.*`…): each view reads and
/// writes the component that holds the value, so a value lives in one place.
extension HostConfiguration {
    /// Which app this daemon is; decided by the executable (`phoned` is the phone, `watchd` the watch).
    public var role: Role {
        get { engine.role }
        set { engine.role = newValue }
    }
    /// Identifies the pair; both daemons must use the same value. Default `"default"`. The engine's.
    public var pairId: String {
        get { engine.pairId }
        set { engine.pairId = newValue }
    }
    /// Socket and state locations, held by the transport (`link`, `peerLink`, `peerControl`), the control
    /// server (`control`) and the store (`state`).
    public var paths: Paths {
        get {
            Paths(
                link: linkPath, peerLink: transport.peerLinkPath, control: control.path, peerControl: transport.peerControlPath,
                state: store.directory, peerState: transport.peerStateDirectory)
        }
        set {
            transport.listener = .bind(path: newValue.link)
            transport.contentMarkerPath = newValue.link + UnixSocketTransportConfiguration.contentMarkerSuffix
            transport.peerLinkPath = newValue.peerLink
            transport.peerControlPath = newValue.peerControl
            control.path = newValue.control
            store.directory = newValue.state
            transport.stateDirectory = newValue.state
            transport.peerStateDirectory = newValue.peerState
        }
    }
    /// Where the host binds the link listener when systemd passes none (`paths.link`): the transport's
    /// `.bind` path.
    public var linkPath: String {
        if case .bind(let path) = transport.listener { return path }
        return ""
    }
    /// Whether accepted transfers survive power loss (`.power`, default) or only a crash (`.process`). The store's.
    public var durability: Durability {
        get { store.durability }
        set { store.durability = newValue }
    }
    /// Payload size limits per channel (bytes of encoded property list). The engine's.
    public var limits: PayloadLimits {
        get { engine.limits }
        set { engine.limits = newValue }
    }
    /// Bounds of the durable queues. The store's.
    public var queues: Queues {
        get {
            var queues = Queues()
            queues.outbox = store.outboxLimit
            queues.inbox = store.inboxLimit
            return queues
        }
        set {
            store.outboxLimit = newValue.outbox
            store.inboxLimit = newValue.inbox
        }
    }
    /// Reply and handshake timeouts (the engine's) and the host's idle exit.
    public var timeouts: Timeouts {
        get {
            var timeouts = Timeouts()
            timeouts.reply = engine.replyTimeout
            timeouts.handshake = engine.handshakeTimeout
            timeouts.idleExit = idleExit
            return timeouts
        }
        set {
            engine.replyTimeout = newValue.reply
            engine.handshakeTimeout = newValue.handshake
            idleExit = newValue.idleExit
        }
    }
    /// Reconnection schedule while background content waits for an absent peer. The engine's.
    public var backoff: BackoffPolicy {
        get { engine.backoff }
        set { engine.backoff = newValue }
    }
    /// Liveness checks of an established link (`interval` nil: no keep-alives). The engine's.
    public var keepAlive: KeepAlivePolicy {
        get { engine.keepAlive }
        set { engine.keepAlive = newValue }
    }
    /// Peer uids allowed on the link (`SO_PEERCRED`): always this process's uid, plus the configured
    /// `allowedUIDs` (default 0). The transport's.
    public var allowedUIDs: Set<UInt32> {
        get { transport.allowedUIDs }
        set { transport.allowedUIDs = newValue }
    }
}
