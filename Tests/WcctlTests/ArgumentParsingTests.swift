import ArgumentParser
import Testing
import WatchPairWire

@testable import WatchPairCLI

@Suite("Argument parsing")
struct ArgumentParsingTests {
    /// A one-line summary of a parsed command, to compare against the table.
    private func summary(_ arguments: [String]) throws -> String {
        let command = try Wcctl.parseAsRoot(arguments)
        guard let sub = command as? any WcctlSubcommand else { return "group \(type(of: command))" }
        let g = sub.root.globals
        let globals = "side=\(g.side?.rawValue ?? "-") control=\(g.control ?? "-") json=\(g.json)"
        switch sub {
        case is StatusCommand: return "status \(globals)"
        case let c as SendCommand: return "send \(c.message) noReply=\(c.noReply) timeout=\(c.timeout.map { "\($0)" } ?? "-") \(globals)"
        case let c as SendDataCommand: return "send-data \(c.file) noReply=\(c.noReply) timeout=\(c.timeout.map { "\($0)" } ?? "-") \(globals)"
        case let c as TransferCommand: return "transfer \(c.userInfo) \(globals)"
        case is TransfersCommand.List: return "transfers \(globals)"
        case let c as TransfersCommand.Cancel: return "cancel \(c.transferId) \(globals)"
        case let c as ContextCommand.SetCommand: return "context-set \(c.context) \(globals)"
        case let c as ContextCommand.GetCommand: return "context-get received=\(c.received) \(globals)"
        case let c as ReceiveCommand:
            return "receive follow=\(c.follow) channels=\(c.channels.map(\.rawValue)) reply=\(c.reply ?? "-") noAck=\(c.noAck) \(globals)"
        case let c as EventsCommand:
            let filters = "both=\(c.both) since=\(c.since ?? "-") event=\(c.kinds) channel=\(c.channels) n=\(c.last.map(String.init) ?? "-")"
            return "events follow=\(c.follow) \(filters) \(globals)"
        case let c as TimelineCommand:
            return "timeline since=\(c.since ?? "-") html=\(c.html ?? "-") svg=\(c.svg ?? "-") mermaid=\(c.mermaid ?? "-") \(globals)"
        default: return "unknown"
        }
    }

    static let table: [([String], String)] = [
        (["status"], "status side=- control=- json=false"),
        (["--json", "status"], "status side=- control=- json=true"),
        (["status", "--json"], "status side=- control=- json=true"),
        (["--side", "watch", "--control", "/tmp/c", "status"], "status side=watch control=/tmp/c json=false"),
        (["status", "--side", "phone"], "status side=phone control=- json=false"),
        (["send", "{\"a\":1}"], "send {\"a\":1} noReply=false timeout=- side=- control=- json=false"),
        (["send", "--no-reply", "--timeout", "2.5", "{}"], "send {} noReply=true timeout=2.5 side=- control=- json=false"),
        (["send-data", "-", "--timeout", "1"], "send-data - noReply=false timeout=1.0 side=- control=- json=false"),
        (["send-data", "/tmp/f", "--no-reply"], "send-data /tmp/f noReply=true timeout=- side=- control=- json=false"),
        (["transfer", "{\"n\":1}"], "transfer {\"n\":1} side=- control=- json=false"),
        (["transfers"], "transfers side=- control=- json=false"),
        (["--json", "transfers"], "transfers side=- control=- json=true"),
        (["transfers", "list"], "transfers side=- control=- json=false"),
        (["transfers", "cancel", "ID-1"], "cancel ID-1 side=- control=- json=false"),
        (["transfers", "cancel", "ID-1", "--json"], "cancel ID-1 side=- control=- json=true"),
        (["context", "set", "{}"], "context-set {} side=- control=- json=false"),
        (["context", "get"], "context-get received=false side=- control=- json=false"),
        (["context", "get", "--received"], "context-get received=true side=- control=- json=false"),
        (["receive"], "receive follow=false channels=[] reply=- noAck=false side=- control=- json=false"),
        (
            ["receive", "--follow", "--channel", "userInfo", "--channel", "message", "--reply", "{\"ok\":1}"],
            "receive follow=true channels=[\"userInfo\", \"message\"] reply={\"ok\":1} noAck=false side=- control=- json=false"
        ),
        (["receive", "--no-ack", "--channel", "didFinish"], "receive follow=false channels=[\"didFinish\"] reply=- noAck=true side=- control=- json=false"),
        (["events"], "events follow=false both=false since=- event=[] channel=[] n=- side=- control=- json=false"),
        (["--side", "watch", "events", "--follow"], "events follow=true both=false since=- event=[] channel=[] n=- side=watch control=- json=false"),
        (
            ["events", "--both", "--since", "15m", "--event", "messageSent", "--event", "idleExit", "--channel", "message", "-n", "5"],
            "events follow=false both=true since=15m event=[\"messageSent\", \"idleExit\"] channel=[\"message\"] n=5 side=- control=- json=false"
        ),
        (["events", "--both", "--follow"], "events follow=true both=true since=- event=[] channel=[] n=- side=- control=- json=false"),
        (["events", "--since", "2026-11-23T22:41:07.5Z"], "events follow=false both=false since=2026-11-23T22:41:07.5Z event=[] channel=[] n=- side=- control=- json=false"),
        (["timeline", "--html", "s.html"], "timeline since=- html=s.html svg=- mermaid=- side=- control=- json=false"),
        (["timeline", "--since", "2h", "--mermaid", "-"], "timeline since=2h html=- svg=- mermaid=- side=- control=- json=false"),
        (["context"], "group ContextCommand"),
        ([], "group Wcctl"),
    ]

    @Test(arguments: table)
    func parses(arguments: [String], expected: String) throws {
        #expect(try summary(arguments) == expected)
    }

    static let usageErrors: [[String]] = [
        ["--bogus", "status"],
        ["status", "--bogus"],
        ["status", "extra"],
        ["nosuchcommand"],
        ["--side", "tablet", "status"],
        ["send"],
        ["send", "{}", "--timeout", "0"],
        ["send", "{}", "--timeout", "-1"],
        ["send", "{}", "--timeout", "soon"],
        ["send-data"],
        ["transfer"],
        ["transfers", "cancel"],
        ["context", "set"],
        ["context", "put", "{}"],
        ["receive", "--channel", "email"],
        ["receive", "--reply", "{}"],
        ["receive", "--follow", "--channel", "userInfo", "--reply", "{}"],
        ["events", "--since", "1"],
        ["events", "--since", "yesterday"],
        ["events", "--since", "5w"],
        ["events", "--channel", "email"],
        ["events", "-n", "-1"],
        ["timeline"],
        ["timeline", "--html", "a", "--svg", "b"],
        ["timeline", "--since", "soon", "--html", "a"],
        ["context"],
        [],
    ]

    @Test(arguments: usageErrors)
    func badCommandLinesExitWithUsage(arguments: [String]) {
        // No server: a usage error must be reported before any connection is tried.
        let result = runWcctl(arguments, environment: ["WCCTL_CONTROL": "/nonexistent/ctl"])
        #expect(result.status == 2)
        #expect(result.err.hasPrefix("Error: "))
        #expect(result.err.contains("Usage: wcctl"))
        #expect(result.out.isEmpty)
    }

    static let resolution: [([String], [String: String], Role, String)] = [
        ([], [:], .phone, "/run/watchpair/phoned.ctl"),
        (["--side", "watch"], [:], .watch, "/run/watchpair/watchd.ctl"),
        ([], ["WCCTL_SIDE": "watch"], .watch, "/run/watchpair/watchd.ctl"),
        ([], ["WCCTL_SIDE": ""], .phone, "/run/watchpair/phoned.ctl"),
        (["--side", "phone"], ["WCCTL_SIDE": "watch"], .phone, "/run/watchpair/phoned.ctl"),
        ([], ["WCCTL_RUNTIME_DIR": "/tmp/wp"], .phone, "/tmp/wp/phoned.ctl"),
        (["--side", "watch"], ["WCCTL_RUNTIME_DIR": "/tmp/wp"], .watch, "/tmp/wp/watchd.ctl"),
        ([], ["WCCTL_CONTROL": "/tmp/x.ctl", "WCCTL_RUNTIME_DIR": "/tmp/wp"], .phone, "/tmp/x.ctl"),
        (["--control", "/tmp/y.ctl"], ["WCCTL_CONTROL": "/tmp/x.ctl"], .phone, "/tmp/y.ctl"),
        (["--side", "watch", "--control", "/tmp/y.ctl"], [:], .watch, "/tmp/y.ctl"),
    ]

    @Test(arguments: resolution)
    func sideAndPathComeFromFlagsThenEnvironment(
        arguments: [String], environment: [String: String], role: Role, path: String
    ) throws {
        let root = try Wcctl.parse(arguments)
        let target = try root.globals.target(environment: environment)
        #expect(target == ControlTarget(role: role, path: path))
    }

    static let pairResolution: [([String], [String: String], String, String?)] = [
        (["--pair", "ci-3"], [:], "/run/watchpair/ci-3/phoned.ctl", "ci-3"),
        (["--side", "watch", "--pair", "ci-3"], [:], "/run/watchpair/ci-3/watchd.ctl", "ci-3"),
        ([], ["WCCTL_PAIR": "ci-4"], "/run/watchpair/ci-4/phoned.ctl", "ci-4"),
        ([], ["WCCTL_PAIR": ""], "/run/watchpair/phoned.ctl", nil),
        (["--pair", "ci-3"], ["WCCTL_PAIR": "ci-4"], "/run/watchpair/ci-3/phoned.ctl", "ci-3"),
        (["--pair", "ci-3"], ["WCCTL_RUNTIME_DIR": "/tmp/wp"], "/tmp/wp/ci-3/phoned.ctl", "ci-3"),
        // A flag beats a variable: --pair wins over $WCCTL_CONTROL; $WCCTL_CONTROL over $WCCTL_PAIR.
        (["--pair", "ci-3"], ["WCCTL_CONTROL": "/tmp/x.ctl"], "/run/watchpair/ci-3/phoned.ctl", "ci-3"),
        ([], ["WCCTL_CONTROL": "/tmp/x.ctl", "WCCTL_PAIR": "ci-4"], "/tmp/x.ctl", "ci-4"),
        (["--control", "/tmp/y.ctl"], ["WCCTL_PAIR": "ci-4"], "/tmp/y.ctl", "ci-4"),
    ]

    @Test(arguments: pairResolution)
    func pairChoosesTheDirectoryOfItsSockets(arguments: [String], environment: [String: String], path: String, pair: String?) throws {
        let root = try Wcctl.parse(arguments)
        let target = try root.globals.target(environment: environment)
        #expect(target.path == path)
        #expect(target.pair?.rawValue == pair)
    }

    @Test(arguments: [
        (["--pair", "a/b", "status"], [String: String](), "wcctl: --pair: pair name \"a/b\" may hold only"),
        (["status"], ["WCCTL_PAIR": "default"], "wcctl: WCCTL_PAIR: \"default\" names the pair without a name"),
        (["--pair", "ci-3", "--control", "/tmp/x.ctl", "status"], [:], "wcctl: --control names one daemon's socket and --pair"),
        (["--pair=-x", "events", "--both"], [:], "wcctl: --pair: pair name \"-x\" must start"),
    ])
    func aBadPairIsUsage(arguments: [String], environment: [String: String], message: String) {
        let result = runWcctl(arguments, environment: environment)
        #expect(result.status == 2)
        #expect(result.err.hasPrefix(message), "\(result.err)")
        #expect(result.out.isEmpty)
    }

    @Test func eventsOfBothAppsAreOfOnePair() throws {
        let root = try Wcctl.parse(["--pair", "ci-3"])
        let targets = try EventQuery.bothTargets(root.globals, environment: ["WCCTL_RUNTIME_DIR": "/tmp/wp"])
        #expect(targets.map(\.path) == ["/tmp/wp/ci-3/phoned.ctl", "/tmp/wp/ci-3/watchd.ctl"])
    }

    @Test func anInvalidSideInTheEnvironmentIsUsage() {
        let result = runWcctl(["status"], environment: ["WCCTL_SIDE": "tablet"])
        #expect(result.status == 2)
        #expect(result.err == "wcctl: WCCTL_SIDE must be phone or watch, not 'tablet'\n")
    }

    static let helpCommands: [[String]] = [
        [], ["status"], ["send"], ["send-data"], ["transfer"], ["transfers"], ["transfers", "cancel"],
        ["context"], ["context", "set"], ["context", "get"], ["receive"], ["events"],
    ]

    @Test(arguments: helpCommands)
    func everyCommandHasHelpWithAnExample(command: [String]) {
        let result = runWcctl(command + ["--help"])
        #expect(result.status == 0)
        #expect(result.err.isEmpty)
        #expect(result.out.contains("EXAMPLE"))
        #expect(result.out.contains("USAGE: wcctl"))
    }

    @Test func theMainHelpTeachesChannelsValuesAndExitStatuses() {
        let out = runWcctl(["--help"]).out
        for needle in [
            "message: live", "userInfo: queued and durable", "applicationContext: latest state only",
            "{\"$data\":\"<base64>\"}", "{\"$date\":", "EXIT STATUS", "3    the daemon is not running",
            "107 notReachable", "WCCTL_SIDE",
        ] {
            #expect(out.contains(needle), "missing \(needle)")
        }
        #expect(runWcctl(["help", "send"]).out.contains("sendMessage"))
    }
}
