import Glibc
import Configuration
import Testing
import WatchPairCore
import WatchPairQuirks
import WatchPairTransport
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

    /// Every component the host builds: its reader's keys and its value read from a config, printed (every
    /// stored field shows, so two prints differ iff a field does).
    static let components: [(name: String, keys: [String], read: @Sendable (ConfigReader) throws(ConfigurationError) -> String)] = [
        ("engine", EngineConfiguration.configKeys, { config throws(ConfigurationError) in "\(try EngineConfiguration(role: .phone, config: config))" }),
        ("transport", UnixSocketTransportConfiguration.configKeys, { config throws(ConfigurationError) in ComponentConfigurationTests.describe(try UnixSocketTransportConfiguration(role: .phone, config: config)) }),
        ("control", ControlServerConfiguration.configKeys, { config throws(ConfigurationError) in "\(try ControlServerConfiguration(role: .phone, config: config))" }),
        ("store", StoreConfiguration.configKeys, { config throws(ConfigurationError) in "\(try StoreConfiguration(role: .phone, config: config))" }),
        ("layer", LayerConfiguration.configKeys, { config throws(ConfigurationError) in "\(try LayerConfiguration(config: config))" }),
    ]

    /// Every field of `transport`; the uids sorted (a `Set`'s order may differ between equal sets).
    static func describe(_ transport: UnixSocketTransportConfiguration) -> String {
        "\(transport.listener) \(transport.peerLinkPath) \(transport.peerControlPath) \(transport.peerStateDirectory ?? "-") \(transport.allowedUIDs.sorted()) "
            + "\(transport.socketMode) \(transport.maximumConnections) \(transport.checksAcceptedPeers) \(transport.allowsRemoteHalfClosure)"
    }

    /// A valid value other than the default for every key but `role`.
    static let nonDefaultValues: [String: String] = [
        "pairId": "other", "limits.message": "100", "limits.userInfo": "100", "limits.applicationContext": "100",
        "timeouts.reply": "2.5", "timeouts.handshake": "2.5", "backoff.initial": "0.2", "backoff.multiplier": "3",
        "backoff.maximum": "7", "backoff.giveUpAfter": "9", "keepAlive.interval": "0", "keepAlive.timeout": "9",
        "paths.link": "/tmp/a.sock", "paths.peerLink": "/tmp/b.sock", "paths.peerControl": "/tmp/c.ctl",
        "paths.peerState": "/tmp/peer-state", "allowedUIDs": "1234",
        "paths.control": "/tmp/d.ctl", "paths.state": "/tmp/state", "durability": "process", "queues.outbox": "3",
        "queues.inbox": "4", "timeouts.idleExit": "3", "launch": "background", "log.level": "debug",
        "log.destination": "stderr", "listenFDName": "x", "complications.dailyBudget": "7",
        "layer.queueCapacity": "5", "layer.queueExpiry": "2", "layer.degradedAfter": "1", "layer.unhealthyAfter": "20",
        "layer.suggestionDedupeWindow": "0", "watches": "a,b",
    ].merging(quirkValues) { first, _ in first }

    /// A valid value other than the default for every quirk key (each turns its quirk on).
    static let quirkValues = Dictionary(uniqueKeysWithValues: QuirkSettings.configKeys.map { key in
        (key, ["probability": "0.5", "count": "2", "seed": "3", "delay": "2s"][String(key.split(separator: ".").last!)]!)
    })

    @Test("the components' keys and the host's own are HostConfiguration.keys, each read by exactly one reader")
    func componentKeysPartitionTheHostKeys() {
        let all = ["role"] + Self.components.flatMap(\.keys) + HostConfiguration.ownConfigKeys
        #expect(all == HostConfiguration.keys)
        #expect(Set(all).count == all.count)
        #expect(Set(Self.nonDefaultValues.keys) == Set(HostConfiguration.keys).subtracting(["role"]))
    }

    @Test("a component reader reads exactly its keys", arguments: 0..<components.count)
    func componentReadsExactlyItsKeys(row: Int) throws {
        let (name, keys, read) = Self.components[row]
        let defaults = try read(reader([:]))
        for (key, value) in Self.nonDefaultValues.sorted(by: { $0.key < $1.key }) {
            let changed = try read(reader([key: value])) != defaults
            #expect(changed == keys.contains(key), "\(name) reader and \(key)=\(value)")
        }
    }

    @Test("HostConfiguration holds exactly what each component's reader produced")
    func hostComposesTheComponentReaders() throws {
        let config = reader(Self.nonDefaultValues)
        let host = try HostConfiguration(role: .phone, config: config)
        // The quirks apart: two equal dictionaries may print in different orders.
        var (engine, read) = (host.engine, try EngineConfiguration(role: .phone, config: config))
        #expect(engine.quirks == read.quirks && engine.quirks.count == 10)
        (engine.quirks, read.quirks) = ([:], [:])
        #expect("\(engine)" == "\(read)")
        #expect(Self.describe(host.transport) == Self.describe(try UnixSocketTransportConfiguration(role: .phone, config: config)))
        #expect(host.control == (try ControlServerConfiguration(role: .phone, config: config)))
        #expect("\(host.store)" == "\(try StoreConfiguration(role: .phone, config: config))")
        #expect(host.layer == (try LayerConfiguration(config: config)))
        // The key-shaped views read the components.
        #expect(host.paths == HostConfiguration.Paths(link: "/tmp/a.sock", peerLink: "/tmp/b.sock", control: "/tmp/d.ctl", peerControl: "/tmp/c.ctl", state: "/tmp/state", peerState: "/tmp/peer-state"))
        #expect(host.queues.outbox == 3 && host.queues.inbox == 4 && host.durability == .process)
        #expect(host.timeouts.reply == .milliseconds(2500) && host.timeouts.handshake == .milliseconds(2500) && host.timeouts.idleExit == .seconds(3))
        #expect(host.allowedUIDs == [1234, UInt32(getuid())] && host.pairId == "other")
        #expect(host.launch == .background && host.listenFDName == "x" && host.log.level == .debug)
    }

    @Test("with no keys every reader yields the component's own defaults")
    func emptyReaderGivesDefaults() throws {
        let empty = reader([:])
        #expect(try PayloadLimits(config: empty) == PayloadLimits())
        #expect(try BackoffPolicy(config: empty) == BackoffPolicy())
        #expect(try KeepAlivePolicy(config: empty) == KeepAlivePolicy())
        #expect(try HostConfiguration.LogSettings(config: empty) == HostConfiguration.LogSettings())
        #expect(try LayerConfiguration(config: empty) == LayerConfiguration())
        #expect("\(try EngineConfiguration(role: .watch, config: empty))" == "\(EngineConfiguration(role: .watch))")
        let store = try StoreConfiguration(role: .watch, config: empty)
        #expect("\(store)" == "\(StoreConfiguration(directory: "/var/lib/watchpair/watchd"))")
        let transport = try UnixSocketTransportConfiguration(role: .watch, config: empty)
        #expect(transport.listener == .bind(path: "/run/watchpair/watchd.sock"))
        #expect(transport.peerLinkPath == "/run/watchpair/phoned.sock" && transport.peerControlPath == "/run/watchpair/phoned.ctl")
        #expect(transport.allowedUIDs == [0, UInt32(getuid())])
        #expect(try ControlServerConfiguration(role: .watch, config: empty).path == "/run/watchpair/watchd.ctl")
        #expect(try HostConfiguration(role: .watch, config: empty).paths == HostConfiguration.Paths(role: .watch))
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

    @Test("each policy reader reads its own keys and no other")
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
        #expect(try HostConfiguration.LogSettings(config: config).destination == .stderr)
    }

    /// The default layer settings with `change` made.
    static func layer(_ change: (inout LayerConfiguration) -> Void) -> LayerConfiguration {
        var layer = LayerConfiguration()
        change(&layer)
        return layer
    }

    @Test("the layer's reader: valid values, each read into its setting", arguments: [
        (["layer.queueCapacity": "1"], layer { $0.queueCapacity = 1 }),
        (["layer.queueExpiry": "0.5"], layer { $0.queueExpiry = .milliseconds(500) }),
        (["layer.degradedAfter": "1", "layer.unhealthyAfter": "1"], layer { ($0.degradedAfter, $0.unhealthyAfter) = (1, 1) }),
        // A degraded threshold above the default unhealthy one raises it, as backoff.initial raises the cap.
        (["layer.degradedAfter": "12"], layer { ($0.degradedAfter, $0.unhealthyAfter) = (12, 12) }),
        (["layer.unhealthyAfter": "3"], layer { $0.unhealthyAfter = 3 }),
        (["layer.suggestionDedupeWindow": "0"], layer { $0.suggestionDedupeWindow = .zero }),
    ])
    func layerValues(values: [String: String], expected: LayerConfiguration) throws {
        #expect(try LayerConfiguration(config: reader(values)) == expected)
    }

    /// One bad value per reader: (key, value, the reader run on it).
    static let badValues: [(key: String, value: String, read: @Sendable (ConfigReader) throws(ConfigurationError) -> Void)] = [
        ("limits.message", "0", { config throws(ConfigurationError) in _ = try PayloadLimits(config: config) }),
        ("backoff.multiplier", "0.5", { config throws(ConfigurationError) in _ = try BackoffPolicy(config: config) }),
        ("keepAlive.timeout", "0", { config throws(ConfigurationError) in _ = try KeepAlivePolicy(config: config) }),
        ("log.level", "loud", { config throws(ConfigurationError) in _ = try HostConfiguration.LogSettings(config: config) }),
        ("pairId", "", { config throws(ConfigurationError) in _ = try EngineConfiguration(role: .phone, config: config) }),
        ("timeouts.handshake", "0", { config throws(ConfigurationError) in _ = try EngineConfiguration(role: .phone, config: config) }),
        ("backoff.giveUpAfter", "-1", { config throws(ConfigurationError) in _ = try EngineConfiguration(role: .phone, config: config) }),
        ("paths.link", "", { config throws(ConfigurationError) in _ = try UnixSocketTransportConfiguration(role: .phone, config: config) }),
        ("paths.peerLink", "/" + String(repeating: "x", count: 107), { config throws(ConfigurationError) in _ = try UnixSocketTransportConfiguration(role: .phone, config: config) }),
        ("allowedUIDs", "0,x", { config throws(ConfigurationError) in _ = try UnixSocketTransportConfiguration(role: .phone, config: config) }),
        ("paths.control", "/" + String(repeating: "x", count: 107), { config throws(ConfigurationError) in _ = try ControlServerConfiguration(role: .phone, config: config) }),
        ("paths.state", "", { config throws(ConfigurationError) in _ = try StoreConfiguration(role: .phone, config: config) }),
        ("durability", "disk", { config throws(ConfigurationError) in _ = try StoreConfiguration(role: .phone, config: config) }),
        ("queues.inbox", "many", { config throws(ConfigurationError) in _ = try StoreConfiguration(role: .phone, config: config) }),
        ("layer.queueExpiry", "-2", { config throws(ConfigurationError) in _ = try LayerConfiguration(config: config) }),
        ("quirks.lateReply.probability", "1.5", { config throws(ConfigurationError) in _ = try EngineConfiguration(role: .phone, config: config) }),
        ("quirks.lostReply.count", "0", { config throws(ConfigurationError) in _ = try EngineConfiguration(role: .phone, config: config) }),
        ("quirks.stuckUserInfo.seed", "-1", { config throws(ConfigurationError) in _ = try EngineConfiguration(role: .phone, config: config) }),
        ("quirks.delayedDelivery.delay", "3s...1s", { config throws(ConfigurationError) in _ = try EngineConfiguration(role: .phone, config: config) }),
    ]

    @Test("quirk keys: any key of a quirk turns it on, the others take their defaults")
    func quirkKeys() throws {
        let engine = try EngineConfiguration(
            role: .watch,
            config: reader(["quirks.lateReply.probability": "0.25", "quirks.lateReply.delay": "500ms...2s", "quirks.stuckUserInfo.count": "1"]))
        #expect(engine.quirks == [
            .lateReply: try QuirkSetting(probability: 0.25, delay: .milliseconds(500) ... .seconds(2)),
            .stuckUserInfo: try QuirkSetting(count: 1),
        ])
        #expect(try EngineConfiguration(role: .watch, config: reader(["quirks.delayedDelivery.delay": "1.5"])).quirks
            == [.delayedDelivery: try QuirkSetting(delay: .milliseconds(1500) ... .milliseconds(1500))])
        #expect(try EngineConfiguration(role: .watch, config: reader([:])).quirks.isEmpty)
    }

    @Test("a bad value is refused by its component's reader, naming the full key", arguments: 0..<badValues.count)
    func badValueNamesItsKey(row: Int) {
        let (key, value, read) = Self.badValues[row]
        let error = #expect(throws: ConfigurationError.self) { try read(reader([key: value])) }
        #expect(error?.key == key)
    }

    @Test("HostConfiguration.keys is the components' keys and its own, in reading order")
    func keysAreComposed() {
        let components = [
            EngineConfiguration.configKeys, UnixSocketTransportConfiguration.configKeys, ControlServerConfiguration.configKeys,
            StoreConfiguration.configKeys, PayloadLimits.configKeys, BackoffPolicy.configKeys, KeepAlivePolicy.configKeys,
            HostConfiguration.LogSettings.configKeys, LayerConfiguration.configKeys,
        ]
        for keys in components {
            #expect(HostConfiguration.keys.contains(keys[0]))
            let start = HostConfiguration.keys.firstIndex(of: keys[0])!
            #expect(Array(HostConfiguration.keys[start..<start + keys.count]) == keys)
        }
        #expect(HostConfiguration.keys.count == Set(HostConfiguration.keys).count)
        #expect(HostConfiguration.keys.count == 35 + 40)
    }
}
