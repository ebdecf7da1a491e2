import ArgumentParser
import WatchPairWire

/// The side of the pair `wcctl` talks to.
public enum Side: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// The iPhone app, `phoned`.
    case phone
    /// The Apple Watch app, `watchd`.
    case watch

    /// The matching role.
    public var role: Role { self == .phone ? .phone : .watch }
}

/// The options every command takes: which pair and daemon, where its control socket is, and the output form.
///
/// They may be given before or after the command name (`wcctl --json status`, `wcctl status --json`).
public struct GlobalOptions: ParsableArguments, Sendable {
    /// The directory holding both control sockets when nothing else says where they are.
    public static let defaultRuntimeDirectory = "/run/watchpair"

    /// `--side`: phone or watch; nil when not given (then `$WCCTL_SIDE`, then phone).
    @Option(help: "The app to talk to: phone (phoned) or watch (watchd). Default: $WCCTL_SIDE, else phone.")
    public var side: Side?

    /// `--pair`: one of several independent pairs on this host; nil when not given (then `$WCCTL_PAIR`,
    /// then the default pair).
    @Option(
        help: ArgumentHelp(
            "The pair to talk to, one of several on this host (phoned@NAME, watchd@NAME): its sockets are in <runtime dir>/NAME/. Default: $WCCTL_PAIR, else the default pair.",
            valueName: "name"))
    public var pair: String?

    /// `--control`: the control socket path; nil when not given.
    @Option(
        help: ArgumentHelp(
            "The daemon's control socket. Default: $WCCTL_CONTROL, else $WCCTL_RUNTIME_DIR/<daemon>.ctl, else /run/watchpair/phoned.ctl or watchd.ctl.",
            valueName: "path"))
    public var control: String?

    /// `--json`: machine-readable output.
    @Flag(help: "Print one JSON object per line, keys sorted, instead of text for people.")
    public var json = false

    /// Creates default options (ArgumentParser fills them in).
    public init() {}

    /// Resolves the side, the pair and the control socket path from the options and the environment.
    ///
    /// Side: `--side`, else `$WCCTL_SIDE`, else phone. Pair: `--pair`, else `$WCCTL_PAIR`, else the
    /// default pair. Path: `--control`, else `$WCCTL_CONTROL` (unless `--pair` is given: a flag beats a
    /// variable), else `<runtime dir>/<daemon>.ctl` (``runtimeDirectory(environment:)``; `<daemon>` is
    /// phoned or watchd). Empty variables count as unset.
    /// - Throws: `.usage` for a `$WCCTL_SIDE` that is neither phone nor watch, a pair name that is not one
    ///   (``PairName/problem(with:)``), or `--pair` together with `--control`.
    public func target(environment: [String: String]) throws(CLIError) -> ControlTarget {
        func variable(_ name: String) -> String? { Self.variable(name, in: environment) }
        let resolvedSide: Side
        if let side {
            resolvedSide = side
        } else if let text = variable("WCCTL_SIDE") {
            guard let parsed = Side(rawValue: text) else {
                throw .usage("WCCTL_SIDE must be phone or watch, not '\(text)'")
            }
            resolvedSide = parsed
        } else {
            resolvedSide = .phone
        }
        let role = resolvedSide.role
        if control != nil, pair != nil {
            throw .usage("--control names one daemon's socket and --pair chooses a pair's directory: give one of them")
        }
        let resolvedPair = try self.resolvedPair(environment: environment)
        let path =
            control ?? (pair == nil ? variable("WCCTL_CONTROL") : nil)
            ?? PairName.directory(variable("WCCTL_RUNTIME_DIR") ?? Self.defaultRuntimeDirectory, pair: resolvedPair) + "/"
            + role.daemonName + ".ctl"
        return ControlTarget(role: role, path: path, pair: resolvedPair)
    }

    /// The directory holding the pair's two control sockets: `$WCCTL_RUNTIME_DIR` (default
    /// `/run/watchpair`), and in it the pair's own directory for a named pair (`/run/watchpair/ci-3`).
    /// - Throws: `.usage` for a pair name that is not one.
    public func runtimeDirectory(environment: [String: String]) throws(CLIError) -> String {
        let base = Self.variable("WCCTL_RUNTIME_DIR", in: environment) ?? Self.defaultRuntimeDirectory
        return PairName.directory(base, pair: try resolvedPair(environment: environment))
    }

    /// `--pair`, else `$WCCTL_PAIR`, validated; nil: the default pair.
    /// - Throws: `.usage` naming where the bad name came from.
    public func resolvedPair(environment: [String: String]) throws(CLIError) -> PairName? {
        let text: String
        let source: String
        if let pair {
            (text, source) = (pair, "--pair")
        } else if let variable = Self.variable("WCCTL_PAIR", in: environment) {
            (text, source) = (variable, "WCCTL_PAIR")
        } else {
            return nil
        }
        do {
            return try PairName(validating: text)
        } catch {
            throw .usage("\(source): \(error)")
        }
    }

    /// A variable's value; nil when unset or empty.
    private static func variable(_ name: String, in environment: [String: String]) -> String? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        return value
    }
}
