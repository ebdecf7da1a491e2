import Configuration
import WatchPairCore
import WatchPairWire

extension EngineConfiguration {
    /// The keys ``init(role:pair:config:)`` reads: its own and those of `PayloadLimits.init(config:)`,
    /// `BackoffPolicy.init(config:)` and `KeepAlivePolicy.init(config:)`, in reading order.
    public static let configKeys =
        ["pairId"] + PayloadLimits.configKeys + ["timeouts.reply", "timeouts.handshake"] + BackoffPolicy.configKeys
        + KeepAlivePolicy.configKeys + ["complications.dailyBudget"] + QuirkSettings.configKeys

    /// Reads the engine of the daemon playing `role` in `pair` from `config`; absent keys keep
    /// `EngineConfiguration`'s defaults. `launch` stays `.foreground`: the host decides it at build time.
    ///
    /// | key | type | default |
    /// |---|---|---|
    /// | `pairId` | string | the pair's name; `default` for the default pair |
    /// | `limits.*` | see `PayloadLimits.init(config:)` | |
    /// | `timeouts.reply` | seconds > 0 | 10 |
    /// | `timeouts.handshake` | seconds > 0 | 5 |
    /// | `backoff.*` | see `BackoffPolicy.init(config:)` | |
    /// | `keepAlive.*` | see `KeepAlivePolicy.init(config:)` | |
    /// | `complications.dailyBudget` | integer ≥ 0 | 50 |
    /// | `quirks.<name>.*` | see `QuirkSettings.read(config:)` | none set |
    /// - Throws: ``ConfigurationError`` naming the first key out of its range or of the wrong type.
    public init(role: Role, pair: PairName? = nil, config: ConfigReader) throws(ConfigurationError) {
        self.init(role: role)
        let read = ConfigFieldReader(config: config)
        // Two daemons of different pairs refuse each other's handshake even when a path is misconfigured.
        pairId = try read.string("pairId") ?? PairName.label(of: pair)
        limits = try PayloadLimits(config: config)
        replyTimeout = try read.seconds("timeouts.reply", exclusiveMinimum: true) ?? replyTimeout
        handshakeTimeout = try read.seconds("timeouts.handshake", exclusiveMinimum: true) ?? handshakeTimeout
        backoff = try BackoffPolicy(config: config)
        keepAlive = try KeepAlivePolicy(config: config)
        complicationDailyBudget = try read.integer("complications.dailyBudget", minimum: 0) ?? complicationDailyBudget
        quirks = try QuirkSettings.read(config: config)
    }
}
