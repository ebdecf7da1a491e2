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

/// The options every command takes: which daemon, where its control socket is, and the output form.
///
/// They may be given before or after the command name (`wcctl --json status`, `wcctl status --json`).
public struct GlobalOptions: ParsableArguments, Sendable {
    /// The directory holding both control sockets when nothing else says where they are.
    public static let defaultRuntimeDirectory = "/run/watchpair"

    /// `--side`: phone or watch; nil when not given (then `$WCCTL_SIDE`, then phone).
    @Option(help: "The app to talk to: phone (phoned) or watch (watchd). Default: $WCCTL_SIDE, else phone.")
    public var side: Side?

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

    /// Resolves the side and the control socket path from the options and the environment.
    ///
    /// Side: `--side`, else `$WCCTL_SIDE`, else phone. Path: `--control`, else `$WCCTL_CONTROL`, else
    /// `$WCCTL_RUNTIME_DIR/<daemon>.ctl`, else `/run/watchpair/<daemon>.ctl` (`<daemon>` is phoned or
    /// watchd). Empty variables count as unset.
    /// - Throws: `.usage` for a `$WCCTL_SIDE` that is neither phone nor watch.
    public func target(environment: [String: String]) throws(CLIError) -> ControlTarget {
        func variable(_ name: String) -> String? {
            guard let value = environment[name], !value.isEmpty else { return nil }
            return value
        }
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
        let path =
            control ?? variable("WCCTL_CONTROL")
            ?? (variable("WCCTL_RUNTIME_DIR") ?? Self.defaultRuntimeDirectory) + "/" + role.daemonName + ".ctl"
        return ControlTarget(role: role, path: path)
    }
}
