import Glibc
import Logging
import WatchPairCore
import WatchPairWire

/// Everything one daemon (`phoned` or `watchd`) needs to know, with DESIGN.md's defaults.
///
/// Plain values only: `init(role:config:)` reads them from a `ConfigReader` (JSON file plus
/// `WATCHPAIR_*` environment overrides, see ``HostConfiguration/load(role:options:environment:)``);
/// tests build one with ``init(role:)`` and change what they need. Every path defaults to the
/// role's daemon name, e.g. `/run/watchpair/phoned.ctl`.
public struct HostConfiguration: Sendable {
    /// Which app this daemon is; decided by the executable (`phoned` is the phone, `watchd` the watch).
    public var role: Role
    /// Identifies the pair; both daemons must use the same value. Default `"default"`.
    public var pairId: String
    /// Socket and state locations.
    public var paths: Paths
    /// Whether accepted transfers survive power loss (`.power`, default) or only a crash (`.process`).
    public var durability: Durability
    /// Payload size limits per channel (bytes of encoded property list).
    public var limits: PayloadLimits
    /// Bounds of the durable queues.
    public var queues: Queues
    /// Reply, handshake and idle-exit timeouts.
    public var timeouts: Timeouts
    /// Reconnection schedule while background content waits for an absent peer.
    public var backoff: BackoffPolicy
    /// Liveness checks of an established link (`interval` nil: no keep-alives).
    public var keepAlive: KeepAlivePolicy
    /// Peer uids allowed on the link (`SO_PEERCRED`): always this process's uid, plus the configured
    /// `allowedUIDs` (default 0: systemd owns socket-activated listeners, so a connecting daemon sees uid 0).
    public var allowedUIDs: Set<UInt32>
    /// How the launch mode is decided.
    public var launch: LaunchSetting
    /// Logging of the daemon itself and of its diagnostic events.
    public var log: LogSettings
    /// The `FileDescriptorName=` of the systemd socket to adopt as the link listener. Default: the daemon name.
    public var listenFDName: String

    /// The defaults for `role`.
    public init(role: Role) {
        self.role = role
        self.pairId = Self.engineDefaults.pairId
        self.paths = Paths(role: role)
        self.durability = Self.storeDefaults.durability
        self.limits = Self.engineDefaults.limits
        self.queues = Queues()
        self.timeouts = Timeouts()
        self.backoff = Self.engineDefaults.backoff
        self.keepAlive = Self.engineDefaults.keepAlive
        self.allowedUIDs = [UInt32(getuid()), 0]
        self.launch = .auto
        self.log = LogSettings()
        self.listenFDName = role.daemonName
    }

    /// The engine's and the store's own defaults (WatchPairCore): each default is written once, there.
    static let engineDefaults = EngineConfiguration(role: .phone)
    static let storeDefaults = StoreConfiguration(directory: "")

    /// `phoned` or `watchd`: the syslog identifier, the prefix of stderr lines and of default paths.
    public var daemonName: String { role.daemonName }

    /// Socket and state locations (DESIGN.md §5).
    public struct Paths: Sendable, Hashable {
        /// This daemon's own peer-link socket (bound here when systemd passes none).
        public var link: String
        /// The peer's link socket: connecting to it may socket-activate the peer.
        public var peerLink: String
        /// This daemon's control socket (mode 0600, bound while running).
        public var control: String
        /// The peer's control socket: it answering means the peer app runs.
        public var peerControl: String
        /// The state directory holding the store.
        public var state: String

        /// Creates a set of paths.
        public init(link: String, peerLink: String, control: String, peerControl: String, state: String) {
            self.link = link
            self.peerLink = peerLink
            self.control = control
            self.peerControl = peerControl
            self.state = state
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
        public var idleExit: Duration = .seconds(10)

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

extension HostConfiguration {
    /// The engine's configuration for a daemon started in `launch` mode.
    public func engineConfiguration(launch: LaunchMode) -> EngineConfiguration {
        EngineConfiguration(
            role: role,
            pairId: pairId,
            launch: launch,
            limits: limits,
            replyTimeout: timeouts.reply,
            handshakeTimeout: timeouts.handshake,
            backoff: backoff,
            keepAlive: keepAlive
        )
    }

    /// The store's configuration.
    public var storeConfiguration: StoreConfiguration {
        StoreConfiguration(directory: paths.state, durability: durability, outboxLimit: queues.outbox, inboxLimit: queues.inbox)
    }
}
