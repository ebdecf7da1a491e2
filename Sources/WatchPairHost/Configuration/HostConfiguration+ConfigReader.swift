import Configuration
import Logging
import WatchPairTransport
import WatchPairCore
import WatchPairWire

extension HostConfiguration {
    /// Reads the configuration of the daemon playing `role` in `pair` (nil: the default pair) from `config`,
    /// validating every value once; the pair decides the defaults of the paths and `pairId`.
    ///
    /// Keys are dotted (`paths.control`); in JSON they nest (`{"paths": {"control": "…"}}`); as environment
    /// variables they are upper-cased with `_`, camelCase split, prefixed `WATCHPAIR_`
    /// (`WATCHPAIR_PATHS_CONTROL`, `WATCHPAIR_TIMEOUTS_IDLE_EXIT`). `<d>` is the daemon name (`phoned` or
    /// `watchd`), `<p>` the peer's. Durations are seconds (JSON numbers, integers allowed).
    ///
    /// Each component's keys are read by its own reader, whose doc lists them with their types and defaults,
    /// and the value it produces is the one `buildHost` hands that component:
    /// `EngineConfiguration.init(role:pair:config:)` (`pairId`, `limits.*`, `timeouts.reply`, `timeouts.handshake`,
    /// `backoff.*`, `keepAlive.*`), `UnixSocketTransportConfiguration.init(role:pair:config:)` (`paths.link`,
    /// `paths.peerLink`, `paths.peerControl`, `paths.peerState`, `allowedUIDs`), ``ControlServerConfiguration/init(role:pair:config:)``
    /// (`paths.control`), `StoreConfiguration.init(role:pair:config:)` (`paths.state`, `durability`, `queues.*`),
    /// ``LayerConfiguration/init(config:)`` (`layer.*`).
    /// This initializer reads the host's own, ``LogSettings/init(config:)`` (`log.*`) among them:
    ///
    /// | key | type | default |
    /// |---|---|---|
    /// | `role` | `phone` \| `watch` | from the executable; any other value is an error |
    /// | `timeouts.idleExit` | seconds > 0 | 10 |
    /// | `launch` | `auto` \| `foreground` \| `background` | `auto` |
    /// | `log.level`, `log.destination` | see ``LogSettings/init(config:)`` | |
    /// | `listenFDName` | string | `<d>` |
    /// | `watches` | list of names (env: comma-separated), phone only | `[]`: one watch at today's paths |
    ///
    /// Absent keys keep their defaults (``init(role:)``).
    /// - Throws: ``ConfigurationError`` naming the first key whose value has the wrong type (not a number,
    ///   not a string…), is out of range (negative duration, zero limit), is not one of the allowed words,
    ///   or is not a usable path (empty, NUL byte, socket path over 107 bytes).
    public init(role: Role, pair: PairName? = nil, config: ConfigReader) throws(ConfigurationError) {
        self.init(role: role, pair: pair)
        let read = ConfigFieldReader(config: config)
        if let configured = try read.choice("role", Role.self), configured != role {
            throw ConfigurationError(
                key: "role", reason: "\(role.daemonName) always plays \"\(role.rawValue)\", got \"\(configured.rawValue)\"")
        }
        // One reader per component, in the order of ``keys`` (the first bad key is the one reported).
        engine = try EngineConfiguration(role: role, pair: pair, config: config)
        transport = try UnixSocketTransportConfiguration(role: role, pair: pair, config: config)
        control = try ControlServerConfiguration(role: role, pair: pair, config: config)
        store = try StoreConfiguration(role: role, pair: pair, config: config)
        layer = try LayerConfiguration(config: config)
        // The installation records (docs/Lifecycle.md): this app's in its store's directory, the peer's
        // where `paths.peerState` says, else beside it.
        transport.stateDirectory = store.directory
        transport.peerStateDirectory = transport.peerStateDirectory ?? Paths.peerState(besides: store.directory, role: role)
        // 0 would exit before the peer that launched the daemon delivered anything.
        idleExit = try read.seconds("timeouts.idleExit", exclusiveMinimum: true) ?? idleExit
        launch = try read.choice("launch", LaunchSetting.self) ?? launch
        log = try LogSettings(config: config)
        listenFDName = try read.string("listenFDName") ?? listenFDName
        watches = try read.names("watches") ?? []
        if role == .watch, !watches.isEmpty {
            throw ConfigurationError(key: "watches", reason: "only the phone lists its watches; a watch knows one phone")
        }
    }

    /// Every key `init(role:pair:config:)` reads, in reading order (for docs and unknown-key warnings): the
    /// components' and the host's own.
    public static let keys: [String] =
        ["role"] + EngineConfiguration.configKeys + UnixSocketTransportConfiguration.configKeys
        + ControlServerConfiguration.configKeys + StoreConfiguration.configKeys + LayerConfiguration.configKeys + ownConfigKeys

    /// The keys `init(role:pair:config:)` reads itself (besides `role`).
    public static let ownConfigKeys = ["timeouts.idleExit", "launch"] + LogSettings.configKeys + ["listenFDName", "watches"]
}
