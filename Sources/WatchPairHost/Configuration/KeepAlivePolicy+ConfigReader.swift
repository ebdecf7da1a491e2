import Configuration
import WatchPairCore

extension KeepAlivePolicy {
    /// The keys ``init(config:)`` reads.
    public static let configKeys = ["keepAlive.interval", "keepAlive.timeout"]

    /// Reads the liveness checks of an established link from `config`; absent keys keep
    /// `KeepAlivePolicy()`'s defaults.
    ///
    /// | key | type | default |
    /// |---|---|---|
    /// | `keepAlive.interval` | seconds ≥ 0, 0 disables keep-alives | 2 |
    /// | `keepAlive.timeout` | seconds > 0 | 6 |
    /// - Throws: ``ConfigurationError`` naming the first key out of its range.
    public init(config: ConfigReader) throws(ConfigurationError) {
        self.init()
        let read = ConfigFieldReader(config: config)
        if let configured = try read.seconds("keepAlive.interval") {
            interval = configured == .zero ? nil : configured
        }
        timeout = try read.seconds("keepAlive.timeout", exclusiveMinimum: true) ?? timeout
    }
}
