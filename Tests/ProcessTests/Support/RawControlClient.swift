import Synchronization
import WatchPairControlClient
import WatchPairWire

/// A bare control-socket client: writes whatever bytes a test wants and collects the lines that come
/// back, so tests can send what `wcctl` never would (garbage, unknown ops, a handler that never answers).
///
/// A face of the control client's `AsyncControlClientConnection`: its thread owns the socket, sends with
/// `MSG_NOSIGNAL` (a daemon that closed the connection is `EPIPE`, never a SIGPIPE that would kill the
/// test runner) and decodes each line with the control codec. A task of this client takes every line, in
/// arrival order, into ``lines`` (each as its compact JSON), and finishes it when reading ends: the daemon
/// closed the connection, or sent a line that is not a response (a link socket's frames). Writing still
/// works after that, until ``close()``.
final class RawControlClient: Sendable {
    /// Every line the daemon wrote, in order; finished when the daemon closed the connection.
    let lines = LineLog()
    /// Nil once closed. The reader holds the connection too while it waits for lines: the socket closes
    /// when both have let go (`AsyncControlClientConnection` closes when released).
    private let connection: Mutex<AsyncControlClientConnection?>
    private let reader: Task<Void, Never>

    /// Connects to the control socket at `path`.
    ///
    /// - Throws: `ControlClientError.system` (`connect` with `ENOENT`, `ECONNREFUSED`, `ENAMETOOLONG`).
    init(path: String) async throws {
        let connection = try await AsyncControlClientConnection.connect(to: path)
        self.connection = Mutex(connection)
        reader = Task { [lines] in
            while let line = try? await connection.next(where: { _ in true }) { lines.append(line.lineBytes) }
            lines.finish()
        }
    }

    deinit { reader.cancel() }

    /// Writes `bytes` completely, whatever they are; returns once the kernel has taken them.
    ///
    /// - Throws: `ControlClientError`: `.system(operation: "send", …)` with `EPIPE`/`ECONNRESET` when the
    ///   daemon has gone away, `.closed` after ``close()``.
    func write(_ bytes: [UInt8]) async throws {
        guard let connection = connection.withLock({ $0 }) else { throw ControlClientError.closed }
        try await connection.write(bytes)
    }

    /// Writes one line: `text` and a newline.
    func send(line text: String) async throws {
        try await write(Array((text + "\n").utf8))
    }

    /// Writes a request object as one JSON line.
    func send(_ request: JSONValue) async throws {
        try await write(request.canonicalUTF8 + [UInt8(ascii: "\n")])
    }

    /// The lines so far, as JSON.
    var responses: [JSONValue] {
        lines.lines.compactMap(Self.decode)
    }

    /// Waits for the first line that is the response (not a stream event) to request `id`
    /// (`ControlResponse.isResponse(to:)`); nil when none came within `timeout` or `id` is not an integer.
    func response(id: JSONValue, timeout: Duration = .seconds(20)) async -> JSONValue? {
        guard let id = id.integerValue else { return nil }
        let matches: @Sendable (String) -> Bool = { line in
            (try? ControlResponse(line: line))?.isResponse(to: id) == true
        }
        await lines.wait(timeout: timeout) { $0.contains(where: matches) }
        return lines.lines.first(where: matches).flatMap(Self.decode)
    }

    /// One line of ``lines`` through the control codec, as JSON.
    @Sendable static func decode(_ line: String) -> JSONValue? {
        (try? ControlResponse(line: line))?.json
    }

    /// Closes the connection; ``lines`` is finished once the reader has stopped. Idempotent.
    func close() {
        connection.withLock { $0 = nil }
        reader.cancel()
    }
}
