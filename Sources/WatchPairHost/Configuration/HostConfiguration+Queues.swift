import Configuration

extension HostConfiguration.Queues {
    /// The keys ``init(config:)`` reads.
    public static let configKeys = ["queues.outbox", "queues.inbox"]

    /// Reads the store's queue bounds from `config`; absent keys keep the store's defaults.
    ///
    /// | key | type | default |
    /// |---|---|---|
    /// | `queues.outbox` | integer ≥ 1 | 10000 |
    /// | `queues.inbox` | integer ≥ 1 | 10000 |
    /// - Throws: ``ConfigurationError`` naming the first key that is not an integer ≥ 1.
    public init(config: ConfigReader) throws(ConfigurationError) {
        self.init()
        let read = ConfigFieldReader(config: config)
        outbox = try read.integer("queues.outbox", minimum: 1) ?? outbox
        inbox = try read.integer("queues.inbox", minimum: 1) ?? inbox
    }
}
