import Configuration
import WatchPairCore

extension PayloadLimits {
    /// The keys ``init(config:)`` reads.
    public static let configKeys = ["limits.message", "limits.userInfo", "limits.applicationContext"]

    /// Reads the payload limits (bytes of encoded property list) from `config`; absent keys keep
    /// `PayloadLimits()`'s defaults.
    ///
    /// | key | type | default |
    /// |---|---|---|
    /// | `limits.message` | integer bytes ≥ 1 | 65536 |
    /// | `limits.userInfo` | integer bytes ≥ 1 | 65536 |
    /// | `limits.applicationContext` | integer bytes ≥ 1 | 262144 |
    /// - Throws: ``ConfigurationError`` naming the first key that is not an integer ≥ 1.
    public init(config: ConfigReader) throws(ConfigurationError) {
        self.init()
        let read = ConfigFieldReader(config: config)
        message = try read.integer("limits.message", minimum: 1) ?? message
        userInfo = try read.integer("limits.userInfo", minimum: 1) ?? userInfo
        applicationContext = try read.integer("limits.applicationContext", minimum: 1) ?? applicationContext
    }
}
