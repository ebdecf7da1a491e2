import Glibc
import WatchPairControlClient
import WatchPairWire

/// Which daemon `wcctl` talks to and where its control socket is.
public struct ControlTarget: Sendable, Hashable {
    /// The side: `phone` is `phoned`, `watch` is `watchd`.
    public var role: Role
    /// The control socket path.
    public var path: String
    /// The pair (`--pair`, `$WCCTL_PAIR`); nil: the default pair. It names the units `open` starts.
    public var pair: PairName?

    /// Creates a target.
    public init(role: Role, path: String, pair: PairName? = nil) {
        self.role = role
        self.path = path
        self.pair = pair
    }

    /// `phoned` or `watchd`, for messages.
    public var daemonName: String { role.daemonName }
}

/// wcctl's face of a daemon's control connection (docs/ControlProtocol.md): blocking calls with wcctl's
/// errors, on the shared client core (``ControlClientConnection``: connect, line framing, response matching).
///
/// Requests get increasing ids from 1. Lines the client sends are at most `maxRequestLineBytes` (the
/// daemon's limit); lines it reads are at most `maxResponseLineBytes`, the bound of its read buffer.
/// Every failure is a `CLIError` with the exit status the contract gives it: the daemon closing the
/// connection is `.notRunning` (exit 3), an `ok: false` response is the WCError it carries.
public final class ControlClient {
    /// The daemon's limit on one request line (1 MiB).
    public static let maxRequestLineBytes = ControlClientConnection.maxRequestLineBytes
    /// The longest response line read (16 MiB): larger than the request limit because a `transfers`
    /// listing carries many payloads. A longer line fails the command (exit 1).
    public static let maxResponseLineBytes = ControlClientConnection.maxResponseLineBytes

    /// The daemon this client is connected to.
    public let target: ControlTarget
    /// The connection, for a caller that waits on several daemons with one `poll(2)`.
    let connection: ControlClientConnection
    private var nextId: Int64 = 1

    private init(target: ControlTarget, connection: ControlClientConnection) {
        self.target = target
        self.connection = connection
    }

    /// Connects to `target`'s control socket.
    ///
    /// - Throws: `.notRunning` when there is no socket or nobody listens on it ("phoned is not running
    ///   (no control socket at PATH)"), `.usage` for a path too long for a Unix socket, `.failure` otherwise
    ///   (for example permission denied).
    public static func connect(
        to target: ControlTarget, maxResponseLineBytes: Int = maxResponseLineBytes
    ) throws(CLIError) -> ControlClient {
        do {
            let connection = try ControlClientConnection.connect(to: target.path, maxResponseLineBytes: maxResponseLineBytes)
            return ControlClient(target: target, connection: connection)
        } catch {
            throw connectError(error, target: target)
        }
    }

    /// The `CLIError` for a failed connect.
    static func connectError(_ error: ControlClientError, target: ControlTarget) -> CLIError {
        let name = target.daemonName
        let code = error.errno ?? 0
        switch code {
        case ENOENT, ENOTDIR:
            return CLIError(.notRunning, "\(name) is not running (no control socket at \(target.path))", errno: code)
        case ECONNREFUSED:
            return CLIError(
                .notRunning, "\(name) is not running (control socket \(target.path) refuses connections)", errno: code)
        case ENAMETOOLONG:
            return CLIError(
                .usage, "control socket path is longer than \(UnixSocketAddress.maxPathBytes) bytes: \(target.path)", errno: code)
        case EACCES, EPERM:
            return CLIError(
                .failure,
                "permission denied on \(name)'s control socket \(target.path) (join its group: sudo usermod -aG watchpair $USER, then log in again)",
                errno: code)
        default:
            return CLIError(.failure, "cannot connect to \(name) at \(target.path): \(CLIError.errorString(code))", errno: code)
        }
    }

    /// A request with a fresh id.
    public func makeRequest(_ op: String) -> ControlRequest {
        defer { nextId += 1 }
        return ControlRequest(id: nextId, op: op)
    }

    /// Writes one request line.
    ///
    /// - Throws: `.wcError(7009)` when the line is over the daemon's 1 MiB limit (nothing is sent);
    ///   `.notRunning` when the daemon has closed the connection.
    public func send(_ request: ControlRequest) throws(CLIError) {
        do {
            try connection.send(request)
        } catch {
            throw cliError(error)
        }
    }

    /// Why the daemon closed the connection: the error it wrote before closing (a refused client reads
    /// one, e.g. "permission denied"), else "closed the control connection".
    private func lastWords() -> CLIError {
        do throws(CLIError) {
            // The peer has closed: what it wrote is read at once, or end of stream; the bound is a safety net.
            if let response = try next(deadline: .now.advanced(by: .seconds(1)), interruptDescriptor: nil), response.ok == false {
                _ = try Self.result(of: response)
            }
        } catch {
            return error
        }
        return closedError()
    }

    /// Sends `request` and waits for its response, at most `wait`.
    ///
    /// Lines for other ids (stream events, late responses) are skipped; an error with `id: null` (a line
    /// the daemon could not read) is taken as the answer, since this is the only request in flight.
    /// - Returns: the response's `result` (`{}` when absent).
    /// - Throws: the response's WCError; `.notRunning` when the daemon closes the connection first;
    ///   `.failure` when it does not answer within `wait` or sends something that is not a response.
    public func call(_ request: ControlRequest, wait: Duration) throws(CLIError) -> JSONValue {
        try send(request)
        let response: ControlResponse?
        do {
            let deadline = ContinuousClock.now.advanced(by: wait)
            response = try connection.response(to: request.id, soleRequest: true, until: deadline)
        } catch {
            throw cliError(error)
        }
        guard let response else {
            throw CLIError(.failure, "\(target.daemonName) did not answer within \(wait.formattedSeconds)")
        }
        return try Self.result(of: response)
    }

    /// The result of a response, or its error as a `CLIError`.
    public static func result(of response: ControlResponse) throws(CLIError) -> JSONValue {
        if response.ok == true { return response.result ?? .object([:]) }
        let error = response.error ?? ControlError(WCFailure(.genericError, "The request failed."))
        throw CLIError(.wcError(code: error.code, name: error.name), error.message)
    }

    /// Reads the next line from the daemon.
    ///
    /// - Returns: the decoded line, or nil when `deadline` passed or `interruptDescriptor` became
    ///   readable first.
    /// - Throws: `.notRunning` when the daemon closed the connection, `.failure` for a line that is not a
    ///   response or is over the limit, or a failed read.
    public func next(
        deadline: ContinuousClock.Instant?, interruptDescriptor: Int32?
    ) throws(CLIError) -> ControlResponse? {
        do {
            return try connection.read(until: deadline, interrupt: interruptDescriptor)
        } catch {
            throw cliError(error)
        }
    }

    /// wcctl's words for a failure of the connection.
    func cliError(_ error: ControlClientError) -> CLIError {
        let name = target.daemonName
        switch error {
        case .system(operation: "send", let code):
            if code == EPIPE || code == ECONNRESET { return lastWords() }
            return CLIError.system("cannot write to \(name)'s control socket", errno: code)
        case .system(_, let code):
            return CLIError.system("cannot read from \(name)'s control socket", errno: code)
        case .closed:
            return closedError()
        case .lineTooLong(let limit):
            return CLIError(.failure, "\(name) sent a line over \(limit) bytes")
        case .invalidLine(let problem, _):
            return CLIError(.failure, "\(name) sent an invalid line: \(problem)")
        case .requestTooLong(let bytes, let limit):
            return CLIError(WCFailure(
                .payloadTooLarge, "The request is \(bytes) bytes, over the control socket's limit of \(limit) bytes per line."))
        case .tooManyUnreadLines:
            return CLIError(.failure, "\(name): \(error)")
        }
    }

    private func closedError() -> CLIError {
        CLIError(.notRunning, "\(target.daemonName) closed the control connection (it stopped or crashed)")
    }
}

extension Duration {
    /// `10 s`, `0.5 s`.
    var formattedSeconds: String {
        let (seconds, attoseconds) = components
        if attoseconds == 0 { return "\(seconds) s" }
        return "\(Double(seconds) + Double(attoseconds) / 1e18) s"
    }
}
