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
    /// | key | type | default |
    /// |---|---|---|
    /// | `role` | `phone` \| `watch` | from the executable; any other value is an error |
    /// | `pairId` | string | `default` |
    /// | `paths.link` | socket path (≤ 107 bytes) | `/run/watchpair/<d>.sock` |
    /// | `paths.peerLink` | socket path | `/run/watchpair/<p>.sock` |
    /// | `paths.control` | socket path | `/run/watchpair/<d>.ctl` |
    /// | `paths.peerControl` | socket path | `/run/watchpair/<p>.ctl` |
    /// | `paths.state` | directory path | `/var/lib/watchpair/<d>` |
    /// | `durability` | `power` \| `process` | `power` |
    /// | `limits.message` | integer bytes ≥ 1 | 65536 |
    /// | `limits.userInfo` | integer bytes ≥ 1 | 65536 |
    /// | `limits.applicationContext` | integer bytes ≥ 1 | 262144 |
    /// | `queues.outbox` | integer ≥ 1 | 10000 |
    /// | `queues.inbox` | integer ≥ 1 | 10000 |
    /// | `timeouts.reply` | seconds > 0 | 10 |
    /// | `timeouts.handshake` | seconds > 0 | 5 |
    /// | `timeouts.idleExit` | seconds > 0 | 10 |
    /// | `backoff.initial` | seconds > 0 | 0.1 |
    /// | `backoff.multiplier` | number ≥ 1 | 2 |
    /// | `backoff.maximum` | seconds ≥ `backoff.initial` | 5 (or `backoff.initial` if larger) |
    /// | `backoff.giveUpAfter` | seconds ≥ 0 | 300 |
    /// | `keepAlive.interval` | seconds ≥ 0, 0 disables keep-alives | 2 |
    /// | `keepAlive.timeout` | seconds > 0 | 6 |
    /// | `allowedUIDs` | list of integers 0…4294967295 (env: comma-separated), allowed besides this process's own uid | `[0]` |
    /// | `launch` | `auto` \| `foreground` \| `background` | `auto` |
    /// | `log.level` | `trace` \| `debug` \| `info` \| `notice` \| `warning` \| `error` \| `critical` | `info` |
    /// | `log.destination` | `auto` \| `journal` \| `stderr` | `auto` |
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
        pairId = try read.string("pairId") ?? pairId

        paths.link = try read.socketPath("paths.link") ?? paths.link
        paths.peerLink = try read.socketPath("paths.peerLink") ?? paths.peerLink
        paths.control = try read.socketPath("paths.control") ?? paths.control
        paths.peerControl = try read.socketPath("paths.peerControl") ?? paths.peerControl
        paths.state = try read.string("paths.state") ?? paths.state
        durability = try read.choice("durability", Durability.self) ?? durability

        limits.message = try read.integer("limits.message", minimum: 1) ?? limits.message
        limits.userInfo = try read.integer("limits.userInfo", minimum: 1) ?? limits.userInfo
        limits.applicationContext = try read.integer("limits.applicationContext", minimum: 1) ?? limits.applicationContext
        queues.outbox = try read.integer("queues.outbox", minimum: 1) ?? queues.outbox
        queues.inbox = try read.integer("queues.inbox", minimum: 1) ?? queues.inbox

        timeouts.reply = try read.seconds("timeouts.reply", exclusiveMinimum: true) ?? timeouts.reply
        timeouts.handshake = try read.seconds("timeouts.handshake", exclusiveMinimum: true) ?? timeouts.handshake
        // 0 would exit before the peer that launched the daemon delivered anything.
        timeouts.idleExit = try read.seconds("timeouts.idleExit", exclusiveMinimum: true) ?? timeouts.idleExit

        backoff.initial = try read.seconds("backoff.initial", exclusiveMinimum: true) ?? backoff.initial
        backoff.multiplier = try read.number("backoff.multiplier", minimum: 1) ?? backoff.multiplier
        // An initial delay above the default cap raises the cap unless the cap is configured too.
        backoff.maximum = try read.seconds("backoff.maximum", minimum: backoff.initial.seconds) ?? max(backoff.maximum, backoff.initial)
        backoff.giveUpAfter = try read.seconds("backoff.giveUpAfter") ?? backoff.giveUpAfter

        if let interval = try read.seconds("keepAlive.interval") {
            keepAlive.interval = interval == .zero ? nil : interval
        }
        keepAlive.timeout = try read.seconds("keepAlive.timeout", exclusiveMinimum: true) ?? keepAlive.timeout

        if let uids = try read.integers("allowedUIDs", in: 0...Int(UInt32.max)) {
            // The daemon's own uid is always allowed: both daemons normally run as the same user.
            allowedUIDs = Set(uids.map { UInt32($0) }).union([UInt32(getuid())])
        }
        launch = try read.choice("launch", LaunchSetting.self) ?? launch
        log.level = try read.choice("log.level", Logger.Level.self) ?? log.level
        log.destination = try read.choice("log.destination", LogDestination.self) ?? log.destination
        listenFDName = try read.string("listenFDName") ?? listenFDName
    }

    /// Every key `init(role:config:)` reads, in the order of its table (for docs and unknown-key warnings).
    public static let keys: [String] = [
        "role", "pairId",
        "paths.link", "paths.peerLink", "paths.control", "paths.peerControl", "paths.state",
        "durability",
        "limits.message", "limits.userInfo", "limits.applicationContext",
        "queues.outbox", "queues.inbox",
        "timeouts.reply", "timeouts.handshake", "timeouts.idleExit",
        "backoff.initial", "backoff.multiplier", "backoff.maximum", "backoff.giveUpAfter",
        "keepAlive.interval", "keepAlive.timeout",
        "allowedUIDs", "launch", "log.level", "log.destination", "listenFDName",
    ]
}
