import Configuration
import WatchPairCore
import WatchPairWire

extension StoreConfiguration {
    /// The keys ``init(role:pair:config:)`` reads.
    public static let configKeys = ["paths.state", "durability", "queues.outbox", "queues.inbox"]

    /// Reads the store of the daemon playing `role` in `pair` from `config`; absent keys keep
    /// `StoreConfiguration`'s defaults, and the directory `/var/lib/watchpair/<pair>/<d>` (docs/Configuration.md).
    /// `<d>` is the daemon name (`phoned` or `watchd`), `<pair>/` the named pair's directory (nothing for the
    /// default pair).
    ///
    /// | key | type | default |
    /// |---|---|---|
    /// | `paths.state` | directory path | `/var/lib/watchpair/<pair>/<d>` |
    /// | `durability` | `power` \| `process` | `power` |
    /// | `queues.outbox` | integer ≥ 1 | 10000 |
    /// | `queues.inbox` | integer ≥ 1 | 10000 |
    /// - Throws: ``ConfigurationError`` naming the first key that is empty or holds a NUL byte, is not one of
    ///   the allowed words, or is not an integer ≥ 1.
    public init(role: Role, pair: PairName? = nil, config: ConfigReader) throws(ConfigurationError) {
        let read = ConfigFieldReader(config: config)
        self.init(directory: try read.string("paths.state") ?? HostConfiguration.Paths(role: role, pair: pair).state)
        durability = try read.choice("durability", Durability.self) ?? durability
        outboxLimit = try read.integer("queues.outbox", minimum: 1) ?? outboxLimit
        inboxLimit = try read.integer("queues.inbox", minimum: 1) ?? inboxLimit
    }
}
