import Logging
import WatchPairCore
import WatchPairTransport
import WatchPairWire

/// Everything one daemon (`phoned` or `watchd`) needs to know, with the defaults of docs/Configuration.md.
///
/// Plain values only, one per component the host builds (``engine``, ``transport``, ``control``, ``store``,
/// and the daemons' ``layer``)
/// plus the host's own: `init(role:pair:config:)` has each component's reader read them from a `ConfigReader`
/// (JSON file plus `WATCHPAIR_*` environment overrides, see ``HostConfiguration/load(role:options:environment:)``)
/// and `buildHost` hands each component its value; tests build one with ``init(role:)`` and change what
/// they need, also through the key-shaped views (``paths``, ``timeouts``, ``queues``…) of
/// HostConfiguration+Views.swift. Every path defaults to the
/// role's daemon name, e.g. `/run/watchpair/phoned.ctl`, in the pair's own directory for a named pair
/// (``pair``): `/run/watchpair/ci-3/phoned.ctl`.
public struct HostConfiguration: Sendable {
    /// The engine's configuration (`pairId`, `limits.*`, `timeouts.reply`, `timeouts.handshake`, `backoff.*`,
    /// `keepAlive.*`); its `role` is the daemon's, its `launch` is decided at build time.
    public var engine: EngineConfiguration
    /// The peer link's configuration (`paths.link`, `paths.peerLink`, `paths.peerControl`, `allowedUIDs`);
    /// its listener is `.bind(path: paths.link)` until the host adopts or binds the real one at build time.
    public var transport: UnixSocketTransportConfiguration
    /// The control server's configuration (`paths.control`).
    public var control: ControlServerConfiguration
    /// The store's configuration (`paths.state`, `durability`, `queues.*`).
    public var store: StoreConfiguration
    /// The daemon's reliability layer (`layer.*`): its queue's bound and expiry, health thresholds and
    /// the suggestions' dedupe window. A `WCSession` app configures its `WatchConnection` in code instead.
    public var layer: LayerConfiguration
    /// How the launch mode is decided.
    public var launch: LaunchSetting
    /// How long a background-launched daemon stays up with nothing to do. Default 10 s.
    public var idleExit: Duration
    /// Logging of the daemon itself and of its diagnostic events.
    public var log: LogSettings
    /// The `FileDescriptorName=` of the systemd socket to adopt as the link listener. Default: the daemon name.
    public var listenFDName: String
    /// Which of the host's pairs this app belongs to (`--pair NAME`, the template units' instance); nil:
    /// the default pair. It decides the default paths and `pairId`, the units whose files say whether the
    /// peer is installed (`watchd@NAME.socket`) and the journal's `WC_PAIR`; set it with ``init(role:pair:)``
    /// so the defaults follow.
    public private(set) var pair: PairName?
    /// Phone side: the watches this phone is paired with (`watches`), each a `watchd` instance with its
    /// own store (docs/Watches.md); one of them is active at a time. Empty (the default): one watch, with
    /// today's paths; ``forWatch(_:)`` gives a watch's paths.
    public var watches: [PairName] = []

    /// The defaults for `role` in `pair` (nil: the default pair, today's paths).
    public init(role: Role, pair: PairName? = nil) {
        let paths = Paths(role: role, pair: pair)
        self.pair = pair
        self.engine = EngineConfiguration(role: role)
        engine.pairId = PairName.label(of: pair)
        self.transport = UnixSocketTransportConfiguration(
            listener: .bind(path: paths.link), peerLinkPath: paths.peerLink, peerControlPath: paths.peerControl,
            allowedUIDs: UnixSocketTransportConfiguration.defaultAllowedUIDs)
        transport.contentMarkerPath = paths.link + UnixSocketTransportConfiguration.contentMarkerSuffix
        transport.stateDirectory = paths.state
        transport.peerStateDirectory = paths.peerState
        self.control = ControlServerConfiguration(path: paths.control)
        self.store = StoreConfiguration(directory: paths.state)
        self.layer = LayerConfiguration()
        self.launch = .auto
        self.idleExit = Self.defaultIdleExit
        self.log = LogSettings()
        self.listenFDName = role.daemonName
    }

    /// The engine's and the store's own defaults (WatchPairCore): each default is written once, there.
    static let engineDefaults = EngineConfiguration(role: .phone)
    static let storeDefaults = StoreConfiguration(directory: "")
    /// `timeouts.idleExit`'s default.
    static let defaultIdleExit = Duration.seconds(10)

    /// `phoned` or `watchd`: the syslog identifier, the prefix of stderr lines and of default paths.
    public var daemonName: String { role.daemonName }

    /// Socket and state locations (`paths.*` in docs/Configuration.md).
    public struct Paths: Sendable, Hashable {
        /// This daemon's own peer-link socket (bound here when systemd passes none).
        public var link: String
        /// The peer's link socket: connecting to it may socket-activate the peer.
        public var peerLink: String
        /// This daemon's control socket (mode 0660 in the daemon's group, bound while running).
        public var control: String
        /// The peer's control socket: it answering means the peer app runs.
        public var peerControl: String
        /// The state directory holding the store (and the app's installation record).
        public var state: String
        /// The peer's state directory, where its installation record is read (`wcctl uninstall`); nil:
        /// none is read.
        public var peerState: String?

        /// Creates a set of paths.
        public init(link: String, peerLink: String, control: String, peerControl: String, state: String, peerState: String? = nil) {
            self.link = link
            self.peerLink = peerLink
            self.control = control
            self.peerControl = peerControl
            self.state = state
            self.peerState = peerState
        }
    }

    /// Bounds of the durable queues; full queues refuse with 7015, never drop.
    public struct Queues: Sendable, Hashable {
        /// Most outstanding outgoing userInfo transfers. Default 10,000 (the store's).
        public var outbox: Int = HostConfiguration.storeDefaults.outboxLimit
        /// Most received userInfo transfers the app has not taken. Default 10,000 (the store's).
        public var inbox: Int = HostConfiguration.storeDefaults.inboxLimit

        /// The defaults.
        public init() {}
    }

    /// Timeouts.
    public struct Timeouts: Sendable, Hashable {
        /// How long a message waits for its reply (7012 after). Default 10 s (the engine's).
        public var reply: Duration = HostConfiguration.engineDefaults.replyTimeout
        /// How long a new link may take to complete its handshake. Default 5 s (the engine's).
        public var handshake: Duration = HostConfiguration.engineDefaults.handshakeTimeout
        /// How long a background-launched daemon stays up with nothing to do. Default 10 s.
        public var idleExit: Duration = HostConfiguration.defaultIdleExit

        /// The defaults.
        public init() {}
    }

    /// How the daemon decides whether it was launched in the foreground or the background.
    public enum LaunchSetting: String, Sendable, Hashable, CaseIterable {
        /// Background when systemd passed a listener with a connection already waiting, else foreground.
        case auto
        /// Always foreground: reachable, never exits by itself.
        case foreground
        /// Always background: exits after `timeouts.idleExit` with nothing to do.
        case background
    }

    /// Where the daemon's log records and diagnostic events go.
    public struct LogSettings: Sendable, Hashable {
        /// Minimum level of log records. Default `.info`.
        public var level: Logger.Level = .info
        /// Where records and events go. Default `.auto`.
        public var destination: LogDestination = .auto

        /// The defaults.
        public init() {}
    }

    /// Destination of log records and diagnostic events.
    public enum LogDestination: String, Sendable, Hashable, CaseIterable {
        /// journald when its socket exists at start-up, stderr otherwise.
        case auto
        /// journald; a record the journal refuses goes to stderr.
        case journal
        /// Always stderr, one line per record.
        case stderr
    }
}
