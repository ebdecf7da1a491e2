import WatchPairVersion
import WatchPairWire

/// The daemons' command-line options, parsed by hand: `--config PATH`, `--pair NAME`, `--help` and
/// `--version`.
///
/// Everything else is configured in the JSON file or with `WATCHPAIR_*` environment variables
/// (docs/Configuration.md), so the default pair's units and tests need no arguments at all; the template
/// units pass their instance as `--pair %i`.
public struct CommandLineOptions: Sendable, Hashable {
    /// The config file given with `--config PATH` (or `--config=PATH`); nil when not given.
    public var configPath: String?
    /// `--help` or `-h` was given: print ``helpText(role:)`` and exit 0.
    public var showHelp: Bool
    /// `--version` was given: print ``versionLine(role:)`` and exit 0.
    public var showVersion = false
    /// The pair given with `--pair NAME` (or `--pair=NAME`); nil: the default pair.
    public var pair: PairName?

    /// No options.
    public init(configPath: String? = nil, showHelp: Bool = false, pair: PairName? = nil) {
        self.configPath = configPath
        self.showHelp = showHelp
        self.pair = pair
    }

    /// Parses the arguments after the executable's name.
    /// - Throws: ``UsageError`` for an unknown argument, a missing or empty `PATH`, `--config` or `--pair`
    ///   given twice, or a `NAME` that is not a pair name (``PairName/problem(with:)``).
    public static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineOptions {
        var options = CommandLineOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help":
                options.showHelp = true
            case "--version":
                options.showVersion = true
            case "--config":
                guard let path = remaining.popFirst() else { throw UsageError("--config needs a PATH") }
                try options.setConfigPath(path)
            case _ where argument.hasPrefix("--config="):
                try options.setConfigPath(String(argument.dropFirst("--config=".count)))
            case "--pair":
                guard let name = remaining.popFirst() else { throw UsageError("--pair needs a NAME") }
                try options.setPair(name)
            case _ where argument.hasPrefix("--pair="):
                try options.setPair(String(argument.dropFirst("--pair=".count)))
            default:
                throw UsageError("unknown argument \"\(argument)\"")
            }
        }
        return options
    }

    private mutating func setConfigPath(_ path: String) throws(UsageError) {
        guard configPath == nil else { throw UsageError("--config given more than once") }
        guard !path.isEmpty else { throw UsageError("--config needs a non-empty PATH") }
        configPath = path
    }

    private mutating func setPair(_ name: String) throws(UsageError) {
        guard pair == nil else { throw UsageError("--pair given more than once") }
        do {
            pair = try PairName(validating: name)
        } catch {
            throw UsageError("--pair: \(error)")
        }
    }

    /// The `--version` line of the daemon playing `role`: name, version, commit.
    public static func versionLine(role: Role) -> String {
        WatchPairVersion.line(name: role.daemonName)
    }

    /// The `--help` text of the daemon playing `role`.
    public static func helpText(role: Role) -> String {
        let name = role.daemonName
        let app = role == .phone ? "iPhone" : "Apple Watch"
        return """
            USAGE: \(name) [--config PATH] [--pair NAME]

            The \(app) app of a WatchPair: serves the WatchConnectivity link to \(role.peer.daemonName)
            and the control socket that wcctl speaks. Normally started by systemd (\(name).socket,
            \(name).service, or \(name)@NAME.socket and \(name)@NAME.service for pair NAME); runs
            just as well by hand.

            OPTIONS:
              --config PATH   JSON configuration file. Default: $WATCHPAIR_CONFIG, else
                              /etc/watchpair/\(name).json (a missing default file means all defaults;
                              a missing file given here or in WATCHPAIR_CONFIG is an error).
              --pair NAME     Run as an app of pair NAME, one of several independent pairs on
                              this host (the template units pass their instance): the default
                              paths below move into NAME's directories (/run/watchpair/NAME/,
                              /var/lib/watchpair/NAME/, config /etc/watchpair/NAME/\(name).json),
                              pairId becomes NAME and journal entries carry WC_PAIR=NAME.
                              NAME: 1-64 ASCII letters, digits, - and _; not "default".
              -h, --help      Show this help.
              --version       Print "\(name) <version> (commit <commit>)".

            CONFIGURATION (every key, type, default and meaning: docs/Configuration.md):
              Keys are dotted: paths.control, timeouts.reply, … In the file they nest:
                {"paths": {"control": "/tmp/wp/\(name).ctl"}, "timeouts": {"reply": 2}}
              Each key can be overridden by an environment variable: WATCHPAIR_ + the key
              upper-cased with _ (camelCase split), e.g. WATCHPAIR_PATHS_CONTROL=/tmp/wp/\(name).ctl,
              WATCHPAIR_TIMEOUTS_IDLE_EXIT=30, WATCHPAIR_ALLOWED_UIDS=0,1000.
              Durations are in seconds. Main keys and defaults:
                paths.link        /run/watchpair/\(name).sock   own peer-link socket
                paths.peerLink    /run/watchpair/\(role.peer.daemonName).sock   the peer's
                paths.control     /run/watchpair/\(name).ctl    control socket (mode 0660)
                paths.state       /var/lib/watchpair/\(name)    durable store
                durability        power | process
                launch            auto | foreground | background
                log.destination   auto | journal | stderr

            EXIT STATUS:
              0 stopped (SIGTERM/SIGINT, or idle exit after a background launch); 1 runtime failure
              (store cannot be opened, socket cannot be bound); 64 bad arguments; 78 bad configuration
              (stderr: "\(name): config: <key>: <why>").
            """
    }
}

/// A command-line argument the daemon does not understand: exit status 64 (`EX_USAGE`).
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. `unknown argument "--foo"`.
    public var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    /// `EX_USAGE` from sysexits.h.
    public static let exitStatus: Int32 = 64

    /// The message.
    public var description: String { message }
}
