import Glibc
import Configuration
import Logging
import WatchPairCore
import WatchPairWire

extension HostConfiguration {
    /// Reads the configuration of the daemon playing `role` from `config`, validating every value once.
    ///
    /// Keys are dotted (`paths.control`); in JSON they nest (`{"paths": {"control": "…"}}`); as environment
    /// variables they are upper-cased with `_`, camelCase split, prefixed `WATCHPAIR_`
    /// (`WATCHPAIR_PATHS_CONTROL`, `WATCHPAIR_TIMEOUTS_IDLE_EXIT`). `<d>` is the daemon name (`phoned` or
    /// `watchd`), `<p>` the peer's. Durations are seconds (JSON numbers, integers allowed).
    ///
    /// Each component's keys are read by its own reader, whose doc lists them with their types and defaults:
    /// ``HostConfiguration/Paths/init(role:config:)`` (`paths.*`: link listener, transport, control server,
    /// store), `PayloadLimits.init(config:)` (`limits.*`), ``HostConfiguration/Queues/init(config:)``
    /// (`queues.*`), ``HostConfiguration/Timeouts/init(config:)`` (`timeouts.*`), `BackoffPolicy.init(config:)`
    /// (`backoff.*`), `KeepAlivePolicy.init(config:)` (`keepAlive.*`), ``HostConfiguration/LogSettings/init(config:)``
    /// (`log.*`). This initializer reads the rest:
    ///
    /// | key | type | default |
    /// |---|---|---|
    /// | `role` | `phone` \| `watch` | from the executable; any other value is an error |
    /// | `pairId` | string | `default` |
    /// | `durability` | `power` \| `process` | `power` |
    /// | `allowedUIDs` | list of integers 0…4294967295 (env: comma-separated), allowed besides this process's own uid | `[0]` |
    /// | `launch` | `auto` \| `foreground` \| `background` | `auto` |
    /// | `listenFDName` | string | `<d>` |
    ///
    /// Absent keys keep their defaults (``init(role:)``).
    /// - Throws: ``ConfigurationError`` naming the first key whose value has the wrong type (not a number,
    ///   not a string…), is out of range (negative duration, zero limit), is not one of the allowed words,
    ///   or is not a usable path (empty, NUL byte, socket path over 107 bytes).
    public init(role: Role, config: ConfigReader) throws(ConfigurationError) {
        self.init(role: role)
        let read = ConfigFieldReader(config: config)
        if let configured = try read.choice("role", Role.self), configured != role {
            throw ConfigurationError(
                key: "role", reason: "\(role.daemonName) always plays \"\(role.rawValue)\", got \"\(configured.rawValue)\"")
        }
        // One reader per component, in the order of the table (the first bad key is the one reported).
        pairId = try read.string("pairId") ?? pairId
        paths = try Paths(role: role, config: config)
        durability = try read.choice("durability", Durability.self) ?? durability
        limits = try PayloadLimits(config: config)
        queues = try Queues(config: config)
        timeouts = try Timeouts(config: config)
        backoff = try BackoffPolicy(config: config)
        keepAlive = try KeepAlivePolicy(config: config)
        if let uids = try read.integers("allowedUIDs", in: 0...Int(UInt32.max)) {
            // The daemon's own uid is always allowed: both daemons normally run as the same user.
            allowedUIDs = Set(uids.map { UInt32($0) }).union([UInt32(getuid())])
        }
        launch = try read.choice("launch", LaunchSetting.self) ?? launch
        log = try LogSettings(config: config)
        listenFDName = try read.string("listenFDName") ?? listenFDName
    }

    /// Every key `init(role:config:)` reads, in the order of its table (for docs and unknown-key warnings):
    /// its own and those of the components' readers.
    public static let keys: [String] =
        ["role", "pairId"] + Paths.configKeys + ["durability"] + PayloadLimits.configKeys + Queues.configKeys
        + Timeouts.configKeys + BackoffPolicy.configKeys + KeepAlivePolicy.configKeys
        + ["allowedUIDs", "launch"] + LogSettings.configKeys + ["listenFDName"]
}
