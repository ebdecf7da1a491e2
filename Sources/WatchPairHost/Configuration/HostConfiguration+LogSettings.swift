import Configuration
import Logging

extension HostConfiguration.LogSettings {
    /// The keys ``init(config:)`` reads.
    public static let configKeys = ["log.level", "log.destination"]

    /// Reads where the daemon's log records and diagnostic events go from `config`; absent keys keep the
    /// defaults.
    ///
    /// | key | type | default |
    /// |---|---|---|
    /// | `log.level` | `trace` \| `debug` \| `info` \| `notice` \| `warning` \| `error` \| `critical` | `info` |
    /// | `log.destination` | `auto` \| `journal` \| `stderr` | `auto` |
    /// - Throws: ``ConfigurationError`` naming the key whose value is not one of its words.
    public init(config: ConfigReader) throws(ConfigurationError) {
        self.init()
        let read = ConfigFieldReader(config: config)
        level = try read.choice("log.level", Logger.Level.self) ?? level
        destination = try read.choice("log.destination", HostConfiguration.LogDestination.self) ?? destination
    }
}
