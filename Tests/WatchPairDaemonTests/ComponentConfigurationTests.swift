import Configuration
import Testing
import WatchPairCore
import WatchPairWire

@testable import WatchPairHost

/// Each component's `init(config:)` on its own: it reads exactly its keys, keeps its defaults for the
/// absent ones, and names the key at fault.
@Suite("Component configuration readers")
struct ComponentConfigurationTests {
    /// A reader over `values` (dotted keys), given as the environment variables the daemons read.
    func reader(_ values: [String: String]) -> ConfigReader {
        var environment: [String: String] = [:]
        for (key, value) in values {
            environment[String(HostConfiguration.environmentVariableName(for: key).dropFirst(HostConfiguration.environmentPrefix.count))] = value
        }
        return ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment))
    }

    @Test("with no keys every reader yields the component's own defaults")
    func emptyReaderGivesDefaults() throws {
        let empty = reader([:])
        #expect(try PayloadLimits(config: empty) == PayloadLimits())
        #expect(try BackoffPolicy(config: empty) == BackoffPolicy())
        #expect(try KeepAlivePolicy(config: empty) == KeepAlivePolicy())
        #expect(try HostConfiguration.Queues(config: empty) == HostConfiguration.Queues())
        #expect(try HostConfiguration.Timeouts(config: empty) == HostConfiguration.Timeouts())
        #expect(try HostConfiguration.LogSettings(config: empty) == HostConfiguration.LogSettings())
        #expect(try HostConfiguration.Paths(role: .watch, config: empty) == HostConfiguration.Paths(role: .watch))
    }

    @Test("defaults are written once: the host takes the engine's and the store's")
    func defaultsComeFromTheComponents() {
        let engine = EngineConfiguration(role: .phone)
        let store = StoreConfiguration(directory: "/x")
        let host = HostConfiguration(role: .phone)
        #expect(host.timeouts.reply == engine.replyTimeout && host.timeouts.handshake == engine.handshakeTimeout)
        #expect(host.limits == engine.limits && host.backoff == engine.backoff && host.keepAlive == engine.keepAlive)
        #expect(host.pairId == engine.pairId)
        #expect(host.queues.outbox == store.outboxLimit && host.queues.inbox == store.inboxLimit)
        #expect(host.durability == store.durability)
    }

    @Test("each reader reads its own keys and no other")
    func readersReadTheirKeys() throws {
        let config = reader([
            "limits.userInfo": "100", "backoff.initial": "7", "keepAlive.interval": "0", "queues.outbox": "3",
            "timeouts.reply": "2.5", "log.destination": "stderr", "paths.peerControl": "/tmp/p.ctl",
        ])
        #expect(try PayloadLimits(config: config) == PayloadLimits(userInfo: 100))
        let backoff = try BackoffPolicy(config: config)
        // An initial delay above the default cap raises the cap.
        #expect(backoff.initial == .seconds(7) && backoff.maximum == .seconds(7))
        #expect(try KeepAlivePolicy(config: config).interval == nil)
        #expect(try HostConfiguration.Queues(config: config).outbox == 3)
        #expect(try HostConfiguration.Queues(config: config).inbox == HostConfiguration.Queues().inbox)
        #expect(try HostConfiguration.Timeouts(config: config).reply == .milliseconds(2500))
        #expect(try HostConfiguration.LogSettings(config: config).destination == .stderr)
        var paths = HostConfiguration.Paths(role: .phone)
        paths.peerControl = "/tmp/p.ctl"
        #expect(try HostConfiguration.Paths(role: .phone, config: config) == paths)
    }

    /// One bad value per reader: (key, value, the reader run on it).
    static let badValues: [(key: String, value: String, read: @Sendable (ConfigReader) throws(ConfigurationError) -> Void)] = [
        ("limits.message", "0", { config throws(ConfigurationError) in _ = try PayloadLimits(config: config) }),
        ("backoff.multiplier", "0.5", { config throws(ConfigurationError) in _ = try BackoffPolicy(config: config) }),
        ("keepAlive.timeout", "0", { config throws(ConfigurationError) in _ = try KeepAlivePolicy(config: config) }),
        ("queues.inbox", "many", { config throws(ConfigurationError) in _ = try HostConfiguration.Queues(config: config) }),
        ("timeouts.idleExit", "-1", { config throws(ConfigurationError) in _ = try HostConfiguration.Timeouts(config: config) }),
        ("log.level", "loud", { config throws(ConfigurationError) in _ = try HostConfiguration.LogSettings(config: config) }),
        ("paths.state", "", { config throws(ConfigurationError) in _ = try HostConfiguration.Paths(role: .phone, config: config) }),
    ]

    @Test("a bad value is refused by its component's reader, naming the full key", arguments: 0..<badValues.count)
    func badValueNamesItsKey(row: Int) {
        let (key, value, read) = Self.badValues[row]
        let error = #expect(throws: ConfigurationError.self) { try read(reader([key: value])) }
        #expect(error?.key == key)
    }

    @Test("HostConfiguration.keys is its own keys and the components', in the documented order")
    func keysAreComposed() {
        let components = [
            HostConfiguration.Paths.configKeys, PayloadLimits.configKeys, HostConfiguration.Queues.configKeys,
            HostConfiguration.Timeouts.configKeys, BackoffPolicy.configKeys, KeepAlivePolicy.configKeys,
            HostConfiguration.LogSettings.configKeys,
        ]
        for keys in components {
            #expect(HostConfiguration.keys.contains(keys[0]))
            let start = HostConfiguration.keys.firstIndex(of: keys[0])!
            #expect(Array(HostConfiguration.keys[start..<start + keys.count]) == keys)
        }
        #expect(HostConfiguration.keys.count == Set(HostConfiguration.keys).count)
        #expect(HostConfiguration.keys.count == 27)
    }
}
