import Glibc

/// Why a control-socket client failed, on this side of the socket (errors the daemon answers with are
/// responses, ``ControlResponse/error``).
///
/// Each face turns it into its own message (wcctl's `CLIError`, wcbench's `BenchError`); the cases carry
/// what those messages need and nothing worded.
public enum ControlClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A system call failed: `operation` names it (`socket`, `connect`, `send`, `recv`, `poll`), `errno`
    /// says why. A path that `sun_path` cannot hold is `connect` with `ENAMETOOLONG` (`ENOENT` when empty).
    case system(operation: String, errno: Int32)
    /// The daemon closed the connection (end of stream, or a reset) before the line that was waited for.
    case closed
    /// A line longer than `limit` bytes arrived: the framing is lost, nothing more is read.
    case lineTooLong(limit: Int)
    /// A line that is not a control response or stream event: `problem` says why, `excerpt` is its first
    /// 300 bytes. Nothing more is read.
    case invalidLine(problem: String, excerpt: String)
    /// A request of `bytes` bytes (newline included) is over the daemon's limit of `limit` per line;
    /// nothing was sent.
    case requestTooLong(bytes: Int, limit: Int)
    /// An ``AsyncControlClientConnection`` holds `limit` lines nobody has taken: it stops reading.
    case tooManyUnreadLines(limit: Int)

    /// The `errno` of a failed system call.
    public var errno: Int32? {
        if case .system(_, let code) = self { return code }
        return nil
    }

    public var description: String {
        switch self {
        case .system(let operation, let code): "\(operation): \(String(cString: strerror(code))) (errno \(code))"
        case .closed: "the daemon closed the control connection"
        case .lineTooLong(let limit): "a line over \(limit) bytes"
        case .invalidLine(let problem, let excerpt): "a line that is not a response (\(problem)): \(excerpt)"
        case .requestTooLong(let bytes, let limit): "a request of \(bytes) bytes, over the limit of \(limit) per line"
        case .tooManyUnreadLines(let limit): "\(limit) lines read and not taken"
        }
    }
}
