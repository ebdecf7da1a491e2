import Glibc
import WatchPairWire

/// The process exit statuses of `wcctl` (docs/ControlProtocol.md, "Exit status of `wcctl`").
public enum ExitStatus {
    /// The command did what it was asked.
    public static let success: Int32 = 0
    /// A local failure that is none of the others: an unreadable input file, a closed standard output,
    /// permission denied on the control socket, a daemon that answered nonsense or not at all.
    public static let failure: Int32 = 1
    /// Bad command line: unknown command or flag, missing or ill-formed argument.
    public static let usage: Int32 = 2
    /// The local daemon is not running (no control socket, or it refuses), or it went away mid-request.
    public static let notRunning: Int32 = 3
    /// `wait` timed out: the condition did not hold in time.
    public static let timedOut: Int32 = 4

    /// `100 + (code − 7000)` for a WCError code (7007 → 107, 7012 → 112).
    ///
    /// Codes outside 7000–7155 cannot be expressed in an exit status; they map to 101 (genericError).
    public static func wcError(code: Int) -> Int32 {
        guard (7000...7155).contains(code) else { return WCErrorCode.genericError.exitStatus }
        return Int32(100 + (code - 7000))
    }
}

/// Why a `wcctl` command failed: the exit status and the one line printed on standard error.
public struct CLIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of failure, which decides the exit status.
    public enum Kind: Sendable, Hashable {
        /// Bad command line or environment (exit 2).
        case usage
        /// The daemon is not running or went away (exit 3).
        case notRunning
        /// `wait` gave up at its timeout (exit 4).
        case timedOut
        /// Standard output was closed by its reader (`EPIPE`): the command stops, quietly, with status 0.
        case outputClosed
        /// A WCError from the daemon or from local validation of a payload (exit `100 + (code − 7000)`).
        case wcError(code: Int, name: String)
        /// Any other local failure (exit 1).
        case failure
    }

    /// The class of failure.
    public var kind: Kind
    /// What went wrong, one sentence, without the `wcctl: ` prefix.
    public var message: String
    /// The `errno` of the system call that failed, when one did.
    public var errno: Int32?

    /// Creates an error of `kind`.
    public init(_ kind: Kind, _ message: String, errno: Int32? = nil) {
        self.kind = kind
        self.message = message
        self.errno = errno
    }

    /// A WCError, e.g. from the daemon's `error` object or from validating a payload locally.
    public init(_ failure: WCFailure) {
        self.init(.wcError(code: failure.code.rawValue, name: failure.code.name), failure.message)
    }

    /// The exit status for this error.
    public var exitStatus: Int32 {
        switch kind {
        case .usage: ExitStatus.usage
        case .notRunning: ExitStatus.notRunning
        case .timedOut: ExitStatus.timedOut
        case .outputClosed: ExitStatus.success
        case .wcError(let code, _): ExitStatus.wcError(code: code)
        case .failure: ExitStatus.failure
        }
    }

    /// The line printed on standard error, e.g. `wcctl: error 7007 (notReachable): The watch app is not running.`
    public var line: String {
        switch kind {
        case .wcError(let code, let name): "wcctl: error \(code) (\(name)): \(message)"
        default: "wcctl: \(message)"
        }
    }

    /// The same as `line`.
    public var description: String { line }

    /// A usage error.
    static func usage(_ message: String) -> CLIError { CLIError(.usage, message) }

    /// A failed system call: keeps `errno` and names what was attempted.
    static func system(_ attempted: String, errno code: Int32) -> CLIError {
        CLIError(.failure, "\(attempted): \(errorString(code))", errno: code)
    }

    /// A failed write to standard output: `.outputClosed` for `EPIPE` (the reader left), else `.failure`.
    static func writingOutput(errno code: Int32) -> CLIError {
        guard code == EPIPE else { return system("cannot write to standard output", errno: code) }
        return CLIError(.outputClosed, "standard output was closed by its reader", errno: code)
    }

    /// The text for an errno value, e.g. `No such file or directory`.
    static func errorString(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
