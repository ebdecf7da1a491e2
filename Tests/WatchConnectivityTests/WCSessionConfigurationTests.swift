import Foundation
import Testing
import WatchPairCore
import WatchPairWire

@testable import WatchConnectivity

@Suite("WCSessionConfiguration")
struct WCSessionConfigurationTests {
    func load(_ environment: [String: String]) async throws(WCSessionConfigurationError) -> WCSessionConfiguration {
        try await WCSessionConfiguration(environment: environment, defaultFileDirectory: nil)
    }

    @Test("defaults are the daemons' paths for the role")
    func defaults() async throws {
        let phone = try await load(["WATCHPAIR_ROLE": "phone"])
        #expect(phone.role == .phone)
        #expect(phone.linkSocketPath == "/run/watchpair/phoned.sock")
        #expect(phone.peerLinkSocketPath == "/run/watchpair/watchd.sock")
        #expect(phone.controlSocketPath == "/run/watchpair/phoned.ctl")
        #expect(phone.peerControlSocketPath == "/run/watchpair/watchd.ctl")
        #expect(phone.stateDirectory == "/var/lib/watchpair/phoned")
        #expect(phone.launch == nil)
        #expect(phone.durability == .power)
        #expect(phone.replyTimeout == .seconds(10))
        #expect(phone.handshakeTimeout == .seconds(5))
        #expect(phone.limits == PayloadLimits())
        #expect(phone.listenFDName == "phoned")
        #expect(phone.allowedUIDs == [0, UInt32(getuid())])
        let watch = try await load(["WATCHPAIR_ROLE": "watch", "WATCHPAIR_RUN_DIR": "/tmp/r"])
        #expect(watch.linkSocketPath == "/tmp/r/watchd.sock")
        #expect(watch.peerControlSocketPath == "/tmp/r/phoned.ctl")
    }

    @Test("init(role:) is the host's defaults, the engine's reply timeout included, with the given directories")
    func initWithRoleTakesTheHostsDefaults() async throws {
        #expect(WCSessionConfiguration(role: .watch) == (try await load(["WATCHPAIR_ROLE": "watch"])))
        let engine = EngineConfiguration(role: .phone)
        let phone = WCSessionConfiguration(role: .phone, runDirectory: "/tmp/r", stateRoot: "/tmp/s")
        #expect(phone.replyTimeout == engine.replyTimeout && phone.handshakeTimeout == engine.handshakeTimeout)
        #expect(phone.backoff == engine.backoff && phone.keepAlive == engine.keepAlive && phone.limits == engine.limits)
        #expect(phone.linkSocketPath == "/tmp/r/phoned.sock" && phone.peerControlSocketPath == "/tmp/r/watchd.ctl")
        #expect(phone.stateDirectory == "/tmp/s/phoned")
    }

    @Test("the daemons' variables are read, and the short aliases override them")
    func variables() async throws {
        let configuration = try await load([
            "WATCHPAIR_ROLE": "watch", "WATCHPAIR_PAIR_ID": "p1", "WATCHPAIR_PATHS_STATE": "/s",
            "WATCHPAIR_PATHS_LINK": "/a.sock", "WATCHPAIR_PATHS_PEER_LINK": "/b.sock", "WATCHPAIR_PATHS_CONTROL": "/a.ctl",
            "WATCHPAIR_PATHS_PEER_CONTROL": "/b.ctl", "WATCHPAIR_LAUNCH": "background", "WATCHPAIR_DURABILITY": "process",
            "WATCHPAIR_TIMEOUTS_REPLY": "2.5", "WATCHPAIR_TIMEOUTS_HANDSHAKE": "1", "WATCHPAIR_LIMITS_MESSAGE": "100",
            "WATCHPAIR_LIMITS_USER_INFO": "200", "WATCHPAIR_LIMITS_APPLICATION_CONTEXT": "300", "WATCHPAIR_QUEUES_OUTBOX": "5",
            "WATCHPAIR_KEEP_ALIVE_INTERVAL": "0", "WATCHPAIR_ALLOWED_UIDS": "1000, 1001", "WATCHPAIR_LISTEN_FDNAME": "link",
        ])
        #expect(configuration.pairId == "p1")
        #expect(configuration.stateDirectory == "/s")
        #expect(configuration.linkSocketPath == "/a.sock")
        #expect(configuration.peerLinkSocketPath == "/b.sock")
        #expect(configuration.controlSocketPath == "/a.ctl")
        #expect(configuration.peerControlSocketPath == "/b.ctl")
        #expect(configuration.launch == .background)
        #expect(configuration.durability == .process)
        #expect(configuration.replyTimeout == .milliseconds(2500))
        #expect(configuration.handshakeTimeout == .seconds(1))
        #expect(configuration.limits == PayloadLimits(message: 100, userInfo: 200, applicationContext: 300))
        #expect(configuration.outboxLimit == 5)
        #expect(configuration.keepAlive.interval == nil)
        #expect(configuration.allowedUIDs == [1000, 1001, UInt32(getuid())])
        #expect(configuration.listenFDName == "link")
        let aliased = try await load([
            "WATCHPAIR_ROLE": "phone", "WATCHPAIR_PATHS_LINK": "/a.sock", "WATCHPAIR_LINK": "/alias.sock",
            "WATCHPAIR_PEER_LINK": "/p.sock", "WATCHPAIR_CONTROL": "/c.ctl", "WATCHPAIR_PEER_CONTROL": "/pc.ctl",
            "WATCHPAIR_STATE_DIR": "/state", "WATCHPAIR_LAUNCH": "auto",
        ])
        #expect(aliased.linkSocketPath == "/alias.sock")
        #expect(aliased.peerLinkSocketPath == "/p.sock")
        #expect(aliased.controlSocketPath == "/c.ctl")
        #expect(aliased.peerControlSocketPath == "/pc.ctl")
        #expect(aliased.stateDirectory == "/state")
        #expect(aliased.launch == nil)
    }

    @Test("the daemons' JSON file is read, and variables override it")
    func file() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/wc.json"
        let json = #"""
            {"role": "phone", "pairId": "from-file", "paths": {"link": "/f/phoned.sock", "state": "/f/state"},
             "timeouts": {"reply": 3, "idleExit": 10}, "limits": {"message": 1000}, "allowedUIDs": [0],
             "backoff": {"initial": 0.1}, "log": {"level": "info"}}
            """#
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        let fromFile = try await load(["WATCHPAIR_CONFIG": path])
        #expect(fromFile.role == .phone)
        #expect(fromFile.pairId == "from-file")
        #expect(fromFile.linkSocketPath == "/f/phoned.sock")
        #expect(fromFile.stateDirectory == "/f/state")
        #expect(fromFile.replyTimeout == .seconds(3))
        #expect(fromFile.limits.message == 1000)
        let overridden = try await load(["WATCHPAIR_CONFIG": path, "WATCHPAIR_PAIR_ID": "env", "WATCHPAIR_PATHS_LINK": "/e.sock"])
        #expect(overridden.pairId == "env")
        #expect(overridden.linkSocketPath == "/e.sock")
        // The repository's daemon configuration files load as they are.
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for daemon in ["phoned", "watchd"] {
            let file = repository.appendingPathComponent("Config/\(daemon).json").path
            guard FileManager.default.fileExists(atPath: file) else { continue }
            let configuration = try await load(["WATCHPAIR_CONFIG": file])
            #expect(configuration.role.daemonName == daemon)
            #expect(configuration.linkSocketPath == "/run/watchpair/\(daemon).sock")
        }
    }

    @Test("the role defaults to phone when WATCHPAIR_ROLE is unset")
    func roleDefaultsToPhone() async throws {
        let configuration = try await load([:])
        #expect(configuration.role == .phone)
        #expect(configuration.linkSocketPath == "/run/watchpair/phoned.sock")
        #expect(WCSession.isSupported())
    }

    @Test("the default file is read when WATCHPAIR_CONFIG is not set")
    func defaultFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data(#"{"pairId": "installed"}"#.utf8).write(to: URL(fileURLWithPath: directory.path + "/watchd.json"))
        let configuration = try await WCSessionConfiguration(environment: ["WATCHPAIR_ROLE": "watch"], defaultFileDirectory: directory.path)
        #expect(configuration.pairId == "installed")
    }

    static let invalid: [([String: String], String)] = [
        (["WATCHPAIR_ROLE": "tablet"], "role"),
        (["WATCHPAIR_ROLE": "phone", "WATCHPAIR_LAUNCH": "later"], "launch"),
        (["WATCHPAIR_ROLE": "phone", "WATCHPAIR_DURABILITY": "maybe"], "durability"),
        (["WATCHPAIR_ROLE": "phone", "WATCHPAIR_TIMEOUTS_REPLY": "soon"], "timeouts.reply"),
        (["WATCHPAIR_ROLE": "phone", "WATCHPAIR_TIMEOUTS_REPLY": "0"], "timeouts.reply"),
        (["WATCHPAIR_ROLE": "phone", "WATCHPAIR_LIMITS_MESSAGE": "1.5"], "limits.message"),
        (["WATCHPAIR_ROLE": "phone", "WATCHPAIR_ALLOWED_UIDS": "root"], "allowedUIDs"),
        (["WATCHPAIR_ROLE": "phone", "WATCHPAIR_LINK": "/" + String(repeating: "x", count: 120)], "paths.link"),
        (["WATCHPAIR_CONFIG": "/nonexistent/wc.json"], "/nonexistent/wc.json"),
    ]

    @Test("invalid settings name their key", arguments: 0..<invalid.count)
    func invalidSettings(_ index: Int) async {
        let (environment, key) = Self.invalid[index]
        let error = await #expect(throws: WCSessionConfigurationError.self) { try await load(environment) }
        #expect(error?.key == key)
    }
}
