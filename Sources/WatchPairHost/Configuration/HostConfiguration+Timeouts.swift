import Configuration

extension HostConfiguration.Timeouts {
    /// The keys ``init(config:)`` reads.
    public static let configKeys = ["timeouts.reply", "timeouts.handshake", "timeouts.idleExit"]

    /// Reads the engine's reply and handshake timeouts and the host's idle exit from `config`; absent keys
    /// keep the defaults (the engine's for `reply` and `handshake`).
    ///
    /// | key | type | default |
    /// |---|---|---|
    /// | `timeouts.reply` | seconds > 0 | 10 |
    /// | `timeouts.handshake` | seconds > 0 | 5 |
    /// | `timeouts.idleExit` | seconds > 0 | 10 |
    /// - Throws: ``ConfigurationError`` naming the first key that is not a number of seconds > 0.
    public init(config: ConfigReader) throws(ConfigurationError) {
        self.init()
        let read = ConfigFieldReader(config: config)
        reply = try read.seconds("timeouts.reply", exclusiveMinimum: true) ?? reply
        handshake = try read.seconds("timeouts.handshake", exclusiveMinimum: true) ?? handshake
        // 0 would exit before the peer that launched the daemon delivered anything.
        idleExit = try read.seconds("timeouts.idleExit", exclusiveMinimum: true) ?? idleExit
    }
}
