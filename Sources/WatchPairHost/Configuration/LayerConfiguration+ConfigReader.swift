import Configuration

extension LayerConfiguration {
    /// The keys ``init(config:)`` reads.
    public static let configKeys = [
        "layer.queueCapacity", "layer.queueExpiry", "layer.degradedAfter", "layer.unhealthyAfter", "layer.suggestionDedupeWindow",
    ]

    /// Reads the reliability layer's settings from `config`; absent keys keep ``init()``'s defaults. Tests
    /// shorten them (an expiry of seconds, a threshold of 1) instead of waiting or editing the queue file.
    ///
    /// | key | type | default |
    /// |---|---|---|
    /// | `layer.queueCapacity` | integer ≥ 1 | 100 |
    /// | `layer.queueExpiry` | seconds > 0 | 3600 |
    /// | `layer.degradedAfter` | integer ≥ 1 | 3 |
    /// | `layer.unhealthyAfter` | integer ≥ `layer.degradedAfter` | 10 (or `layer.degradedAfter` if larger) |
    /// | `layer.suggestionDedupeWindow` | seconds ≥ 0 | 30 |
    /// - Throws: ``ConfigurationError`` naming the first key that is not a number of the right kind or is
    ///   out of its range.
    public init(config: ConfigReader) throws(ConfigurationError) {
        self.init()
        let read = ConfigFieldReader(config: config)
        queueCapacity = try read.integer("layer.queueCapacity", minimum: 1) ?? queueCapacity
        // 0 would expire every request as it is queued.
        queueExpiry = try read.seconds("layer.queueExpiry", exclusiveMinimum: true) ?? queueExpiry
        degradedAfter = try read.integer("layer.degradedAfter", minimum: 1) ?? degradedAfter
        // A degraded threshold above the default unhealthy one raises it unless that is configured too.
        unhealthyAfter = try read.integer("layer.unhealthyAfter", minimum: degradedAfter) ?? max(unhealthyAfter, degradedAfter)
        suggestionDedupeWindow = try read.seconds("layer.suggestionDedupeWindow") ?? suggestionDedupeWindow
    }
}
