import Configuration
import WatchPairCore

extension BackoffPolicy {
    /// The keys ``init(config:)`` reads.
    public static let configKeys = ["backoff.initial", "backoff.multiplier", "backoff.maximum", "backoff.giveUpAfter"]

    /// Reads the reconnection schedule from `config`; absent keys keep `BackoffPolicy()`'s defaults.
    ///
    /// | key | type | default |
    /// |---|---|---|
    /// | `backoff.initial` | seconds > 0 | 0.1 |
    /// | `backoff.multiplier` | number ≥ 1 | 2 |
    /// | `backoff.maximum` | seconds ≥ `backoff.initial` | 5 (or `backoff.initial` if larger) |
    /// | `backoff.giveUpAfter` | seconds ≥ 0 | 300 |
    /// - Throws: ``ConfigurationError`` naming the first key out of its range.
    public init(config: ConfigReader) throws(ConfigurationError) {
        self.init()
        let read = ConfigFieldReader(config: config)
        initial = try read.seconds("backoff.initial", exclusiveMinimum: true) ?? initial
        multiplier = try read.number("backoff.multiplier", minimum: 1) ?? multiplier
        // An initial delay above the default cap raises the cap unless the cap is configured too.
        maximum = try read.seconds("backoff.maximum", minimum: initial.seconds) ?? max(maximum, initial)
        giveUpAfter = try read.seconds("backoff.giveUpAfter") ?? giveUpAfter
    }
}
