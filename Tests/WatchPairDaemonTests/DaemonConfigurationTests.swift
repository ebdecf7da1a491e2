import Foundation
import Testing
import WatchPairCore
import WatchPairWire

@testable import WatchPairDaemon
@testable import WatchPairHost

@Suite("DaemonConfiguration")
struct DaemonConfigurationTests {
    /// Loads with only `environment` (no config file: the default path does not exist in tests).
    func load(_ environment: [String: String] = [:], role: Role = .phone, file: String? = nil) async throws(ConfigurationError) -> DaemonConfiguration {
        var environment = environment
        if let file { environment["WATCHPAIR_CONFIG"] = file }
        return try await DaemonConfiguration.load(role: role, options: CommandLineOptions(), environment: environment).configuration
    }

    @Test func defaultsFollowTheRole() async throws {
        let phone = try await load(role: .phone)
        #expect(phone.paths.link == "/run/watchpair/phoned.sock")
        #expect(phone.paths.peerLink == "/run/watchpair/watchd.sock")
        #expect(phone.paths.control == "/run/watchpair/phoned.ctl")
        #expect(phone.paths.peerControl == "/run/watchpair/watchd.ctl")
        #expect(phone.paths.state == "/var/lib/watchpair/phoned")
        #expect(phone.listenFDName == "phoned")
        #expect(phone.durability == .power)
        #expect(phone.timeouts.reply == .seconds(10))
        #expect(phone.timeouts.idleExit == .seconds(10))
        #expect(phone.queues.outbox == 10_000 && phone.queues.inbox == 10_000)
        #expect(phone.limits == PayloadLimits())
        #expect(phone.launch == .auto)
        #expect(phone.log.destination == .auto && phone.log.level == .info)
        #expect(phone.layer == LayerConfiguration())
        let watch = try await load(role: .watch)
        #expect(watch.paths.control == "/run/watchpair/watchd.ctl")
        #expect(watch.paths.peerLink == "/run/watchpair/phoned.sock")
        #expect(watch.role == .watch)
    }

    @Test func aNamedPairHasItsOwnDirectoriesAndPairId() async throws {
        let pair = try PairName(validating: "ci-3")
        let phone = try await DaemonConfiguration.load(role: .phone, options: CommandLineOptions(pair: pair), environment: [:]).configuration
        #expect(phone.pair == pair)
        #expect(phone.paths == DaemonConfiguration.Paths(
            link: "/run/watchpair/ci-3/phoned.sock", peerLink: "/run/watchpair/ci-3/watchd.sock",
            control: "/run/watchpair/ci-3/phoned.ctl", peerControl: "/run/watchpair/ci-3/watchd.ctl",
            state: "/var/lib/watchpair/ci-3/phoned", peerState: "/var/lib/watchpair/ci-3/watchd"))
        #expect(phone.pairId == "ci-3")
        #expect(phone.transport.contentMarkerPath == "/run/watchpair/ci-3/phoned.sock.pending")
        #expect(phone.listenFDName == "phoned", "the template socket names its descriptor as the default one does")
        let watch = try await DaemonConfiguration.load(role: .watch, options: CommandLineOptions(pair: pair), environment: [:]).configuration
        #expect(watch.paths.control == "/run/watchpair/ci-3/watchd.ctl" && watch.paths.peerLink == "/run/watchpair/ci-3/phoned.sock")
        #expect(watch.paths.state == "/var/lib/watchpair/ci-3/watchd" && watch.paths.peerState == "/var/lib/watchpair/ci-3/phoned")
        // The default pair keeps today's paths and pair id.
        let plain = try await load()
        #expect(plain.pair == nil && plain.pairId == "default" && plain.paths == DaemonConfiguration.Paths(role: .phone))
    }

    @Test func aNamedPairReadsItsOwnFileAndKeysStillWin() async throws {
        let dir = try TemporaryDirectory()
        let pair = try PairName(validating: "ci-3")
        #expect(DaemonConfiguration.defaultFile(role: .watch, pair: pair, directory: dir.path) == dir.path + "/ci-3/watchd.json")
        #expect(DaemonConfiguration.defaultFile(role: .watch, pair: nil) == "/etc/watchpair/watchd.json")
        try FileManager.default.createDirectory(atPath: dir.path + "/ci-3", withIntermediateDirectories: true)
        try #"{"paths": {"peerLink": "/tmp/proxy.sock"}, "pairId": "shared"}"#.write(toFile: dir.path + "/ci-3/watchd.json", atomically: true, encoding: .utf8)
        let loaded = try await DaemonConfiguration.load(
            role: .watch, options: CommandLineOptions(pair: pair), environment: ["WATCHPAIR_TIMEOUTS_REPLY": "3"], defaultFileDirectory: dir.path)
        #expect(loaded.file == dir.path + "/ci-3/watchd.json")
        #expect(loaded.configuration.paths.peerLink == "/tmp/proxy.sock" && loaded.configuration.paths.control == "/run/watchpair/ci-3/watchd.ctl")
        #expect(loaded.configuration.pairId == "shared" && loaded.configuration.timeouts.reply == .seconds(3))
    }

    @Test func fileValuesApplyAndEnvironmentOverridesThem() async throws {
        let file = try TemporaryFile(
            """
            {"pairId": "lab", "paths": {"control": "/tmp/x.ctl", "state": "/tmp/state"},
             "durability": "process", "timeouts": {"reply": 2, "idleExit": 0.5},
             "keepAlive": {"interval": 0}, "allowedUIDs": [0, 1000], "launch": "background",
             "log": {"level": "debug", "destination": "stderr"}, "limits": {"userInfo": 100},
             "layer": {"queueExpiry": 2, "degradedAfter": 1}}
            """)
        let configuration = try await load(
            ["WATCHPAIR_TIMEOUTS_REPLY": "3.5", "WATCHPAIR_PATHS_STATE": "/tmp/other", "WATCHPAIR_LAYER_QUEUE_EXPIRY": "5"], file: file.path)
        #expect(configuration.pairId == "lab")
        #expect(configuration.paths.control == "/tmp/x.ctl")
        #expect(configuration.paths.state == "/tmp/other")
        #expect(configuration.durability == .process)
        #expect(configuration.timeouts.reply == .seconds(3.5))
        #expect(configuration.timeouts.idleExit == .milliseconds(500))
        #expect(configuration.keepAlive.interval == nil)
        #expect(configuration.allowedUIDs == Set([0, 1000, UInt32(getuid())]))
        #expect(configuration.launch == .background)
        #expect(configuration.log.level == .debug && configuration.log.destination == .stderr)
        #expect(configuration.limits.userInfo == 100 && configuration.limits.message == 65_536)
        #expect(configuration.layer.queueExpiry == .seconds(5) && configuration.layer.degradedAfter == 1)
        #expect(configuration.layer.unhealthyAfter == 10 && configuration.layer.queueCapacity == 100)
    }

    @Test func environmentAloneOverridesDefaults() async throws {
        let configuration = try await load([
            "WATCHPAIR_PATHS_CONTROL": "/tmp/c.ctl", "WATCHPAIR_ALLOWED_UIDS": "5,6", "WATCHPAIR_TIMEOUTS_IDLE_EXIT": "30",
            "WATCHPAIR_LIMITS_APPLICATION_CONTEXT": "1000", "WATCHPAIR_LISTEN_FDNAME": "link",
        ])
        #expect(configuration.paths.control == "/tmp/c.ctl")
        #expect(configuration.allowedUIDs == Set([5, 6, UInt32(getuid())]))
        #expect(configuration.timeouts.idleExit == .seconds(30))
        #expect(configuration.limits.applicationContext == 1000)
        #expect(configuration.listenFDName == "link")
    }

    /// Every kind of wrong value stops loading with an error naming its key.
    @Test(arguments: [
        ("WATCHPAIR_TIMEOUTS_REPLY", "abc", "timeouts.reply", "number"),
        ("WATCHPAIR_TIMEOUTS_REPLY", "-1", "timeouts.reply", "> 0"),
        ("WATCHPAIR_TIMEOUTS_REPLY", "0", "timeouts.reply", "> 0"),
        ("WATCHPAIR_TIMEOUTS_IDLE_EXIT", "-0.5", "timeouts.idleExit", "> 0"),
        ("WATCHPAIR_BACKOFF_GIVE_UP_AFTER", "-1", "backoff.giveUpAfter", "≥ 0"),
        ("WATCHPAIR_TIMEOUTS_HANDSHAKE", "nan", "timeouts.handshake", "seconds"),
        ("WATCHPAIR_KEEP_ALIVE_TIMEOUT", "inf", "keepAlive.timeout", "seconds"),
        ("WATCHPAIR_BACKOFF_MULTIPLIER", "0.5", "backoff.multiplier", "≥ 1"),
        ("WATCHPAIR_BACKOFF_MAXIMUM", "0.01", "backoff.maximum", "≥ 0.1"),
        ("WATCHPAIR_LIMITS_MESSAGE", "0", "limits.message", "≥ 1"),
        ("WATCHPAIR_QUEUES_INBOX", "many", "queues.inbox", "integer"),
        ("WATCHPAIR_LAUNCH", "later", "launch", "one of"),
        ("WATCHPAIR_DURABILITY", "disk", "durability", "one of"),
        ("WATCHPAIR_LOG_LEVEL", "loud", "log.level", "one of"),
        ("WATCHPAIR_LOG_DESTINATION", "syslog", "log.destination", "one of"),
        ("WATCHPAIR_ROLE", "watch", "role", "always plays"),
        ("WATCHPAIR_PATHS_CONTROL", "", "paths.control", "non-empty"),
        ("WATCHPAIR_PATHS_LINK", "/tmp/" + String(repeating: "x", count: 120), "paths.link", "107 bytes"),
        ("WATCHPAIR_ALLOWED_UIDS", "1,-2", "allowedUIDs", "0...4294967295"),
        ("WATCHPAIR_ALLOWED_UIDS", "root", "allowedUIDs", "integers"),
        ("WATCHPAIR_LAYER_QUEUE_CAPACITY", "0", "layer.queueCapacity", "≥ 1"),
        ("WATCHPAIR_LAYER_QUEUE_CAPACITY", "lots", "layer.queueCapacity", "integer"),
        ("WATCHPAIR_LAYER_QUEUE_EXPIRY", "0", "layer.queueExpiry", "> 0"),
        ("WATCHPAIR_LAYER_QUEUE_EXPIRY", "soon", "layer.queueExpiry", "seconds"),
        ("WATCHPAIR_LAYER_DEGRADED_AFTER", "0", "layer.degradedAfter", "≥ 1"),
        ("WATCHPAIR_LAYER_UNHEALTHY_AFTER", "2", "layer.unhealthyAfter", "≥ 3"),
        ("WATCHPAIR_LAYER_SUGGESTION_DEDUPE_WINDOW", "-1", "layer.suggestionDedupeWindow", "≥ 0"),
    ])
    func wrongValueNamesItsKey(variable: String, value: String, key: String, reason: String) async {
        let error = await #expect(throws: ConfigurationError.self) {
            try await load([variable: value])
        }
        #expect(error?.key == key)
        #expect(error?.reason.contains(reason) == true, "\(error?.reason ?? "")")
        #expect(error?.line(daemon: "phoned").hasPrefix("phoned: config: \(key): ") == true)
    }

    @Test(arguments: [
        (#"{"timeouts": {"reply": "soon"}}"#, "timeouts.reply"),
        (#"{"paths": {"state": 5}}"#, "paths.state"),
        (#"{"allowedUIDs": "0"}"#, "allowedUIDs"),
        (#"{"launch": true}"#, "launch"),
        (#"{"timeouts": {"reply": true}}"#, "timeouts.reply"),
        (#"{"queues": {"inbox": null}}"#, "queues.inbox"),
        (#"{"allowedUIDs": [0, false]}"#, "allowedUIDs"),
        (#"{"layer": {"queueExpiry": "1h"}}"#, "layer.queueExpiry"),
        (#"{"layer": {"queueCapacity": 2.5}}"#, "layer.queueCapacity"),
    ])
    func wrongTypeInFileNamesItsKey(json: String, key: String) async throws {
        let file = try TemporaryFile(json)
        let error = await #expect(throws: ConfigurationError.self) { try await load(file: file.path) }
        #expect(error?.key == key)
    }

    @Test func missingExplicitFileIsAnErrorNamingIt() async {
        let error = await #expect(throws: ConfigurationError.self) { try await load(file: "/nonexistent/phoned.json") }
        #expect(error?.key == "/nonexistent/phoned.json")
        #expect(error?.reason == "no such file")
    }

    @Test(arguments: [#"{"timeouts": "#, "[1, 2]", "not json"])
    func malformedFileIsAnErrorNamingIt(json: String) async throws {
        let file = try TemporaryFile(json)
        let error = await #expect(throws: ConfigurationError.self) { try await load(file: file.path) }
        #expect(error?.key == file.path)
    }

    @Test func unknownKeysAndVariablesAreWarnedAbout() async throws {
        let file = try TemporaryFile(#"{"timeout": {"reply": 2}, "paths": {"control": "/tmp/a.ctl"}}"#)
        let loaded = try await DaemonConfiguration.load(
            role: .phone, options: CommandLineOptions(configPath: file.path), environment: ["WATCHPAIR_TIMEOUT_REPLY": "1"])
        #expect(loaded.file == file.path)
        #expect(loaded.warnings.count == 2)
        #expect(loaded.warnings.contains { $0.contains("timeout.reply") })
        #expect(loaded.warnings.contains { $0.contains("WATCHPAIR_TIMEOUT_REPLY") })
    }

    /// Config/phoned.json and Config/watchd.json list every key, with the defaults.
    @Test(arguments: [Role.phone, .watch])
    func shippedConfigFilesListEveryKeyWithItsDefault(role: Role) async throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Config/\(role.daemonName).json").standardized.path
        let loaded = try await DaemonConfiguration.load(role: role, options: CommandLineOptions(configPath: path), environment: [:])
        #expect(loaded.warnings.isEmpty)
        let expected = DaemonConfiguration(role: role)
        let got = loaded.configuration
        #expect(got.paths == expected.paths)
        #expect(got.limits == expected.limits && got.queues == expected.queues && got.timeouts == expected.timeouts)
        #expect(got.backoff == expected.backoff && got.keepAlive == expected.keepAlive)
        #expect(got.allowedUIDs == expected.allowedUIDs && got.listenFDName == expected.listenFDName)
        #expect(got.layer == expected.layer)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(got.engine.quirks.isEmpty)
        // The quirk keys are not listed: any of them turns its quirk on (docs/Configuration.md lists them).
        for key in DaemonConfiguration.keys where !key.hasPrefix("quirks.") {
            #expect(text.contains("\"\(key.split(separator: ".").last!)\""), "\(key) missing from \(path)")
        }
    }

    @Test(arguments: [
        ("timeouts.idleExit", "WATCHPAIR_TIMEOUTS_IDLE_EXIT"),
        ("allowedUIDs", "WATCHPAIR_ALLOWED_UIDS"),
        ("limits.applicationContext", "WATCHPAIR_LIMITS_APPLICATION_CONTEXT"),
        ("listenFDName", "WATCHPAIR_LISTEN_FDNAME"),
        ("paths.peerControl", "WATCHPAIR_PATHS_PEER_CONTROL"),
    ])
    func environmentVariableNames(key: String, variable: String) {
        #expect(DaemonConfiguration.environmentVariableName(for: key) == variable)
    }

    @Test func everyKeyIsDocumented() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/Configuration.md").standardized.path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for key in DaemonConfiguration.keys {
            #expect(text.contains("| `\(key)` |"), "\(key) has no row in docs/Configuration.md")
            #expect(text.contains(DaemonConfiguration.environmentVariableName(for: key)))
        }
    }
}

@Suite("CommandLineOptions")
struct CommandLineOptionsTests {
    @Test func parsesTheTwoOptions() throws {
        #expect(try CommandLineOptions.parse([]) == CommandLineOptions())
        #expect(try CommandLineOptions.parse(["--config", "/a.json"]) == CommandLineOptions(configPath: "/a.json"))
        #expect(try CommandLineOptions.parse(["--config=/b.json"]) == CommandLineOptions(configPath: "/b.json"))
        #expect(try CommandLineOptions.parse(["-h"]).showHelp)
        #expect(try CommandLineOptions.parse(["--version"]).showVersion)
        #expect(CommandLineOptions.versionLine(role: .watch).hasPrefix("watchd "))
        #expect(try CommandLineOptions.parse(["--help", "--config", "x"]) == CommandLineOptions(configPath: "x", showHelp: true))
    }

    @Test func parsesThePair() throws {
        let pair = try PairName(validating: "ci-3")
        #expect(try CommandLineOptions.parse(["--pair", "ci-3"]) == CommandLineOptions(pair: pair))
        #expect(try CommandLineOptions.parse(["--pair=ci-3", "--config", "x"]) == CommandLineOptions(configPath: "x", pair: pair))
    }

    @Test(arguments: [
        (["--pair"], "--pair needs a NAME"), (["--pair", "a", "--pair", "b"], "--pair given more than once"),
        (["--pair", "default"], "leave out the pair name"), (["--pair=a/b"], "may hold only ASCII letters"),
        (["--pair="], "must not be empty"),
    ])
    func rejectsBadPairs(arguments: [String], message: String) {
        #expect(throws: UsageError.self) { try CommandLineOptions.parse(arguments) }
        do {
            _ = try CommandLineOptions.parse(arguments)
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test(arguments: [["--config"], ["--config="], ["--verbose"], ["--config", "a", "--config", "b"], ["run"]])
    func rejectsBadArguments(arguments: [String]) {
        #expect(throws: UsageError.self) { try CommandLineOptions.parse(arguments) }
    }

    @Test func helpExplainsConfiguration() {
        let help = CommandLineOptions.helpText(role: .watch)
        #expect(help.contains("USAGE: watchd [--config PATH]"))
        #expect(help.contains("WATCHPAIR_CONFIG"))
        #expect(help.contains("/etc/watchpair/watchd.json"))
        #expect(help.contains("docs/Configuration.md"))
        #expect(help.contains("--pair NAME") && help.contains("watchd@NAME.service"))
    }
}
