import Glibc
import WatchPairControlClient
import WatchPairWire

/// wcbench's face of a control connection (docs/ControlProtocol.md) for the timed loops, on the shared
/// client core (``ControlClientConnection``: connect, line framing, response matching).
///
/// Each request is written with one `send(2)`; many may be in flight (the daemon runs up to 64 per
/// connection and matches responses by id). Reads are non-blocking into a buffer that is reused and holds
/// at most one unfinished line plus one 256 KiB chunk; lines longer than 16 MiB fail the run. Callers
/// wait for data with ``Poller``. wcctl's `ControlClient` is used for the untimed requests (`status`).
final class BenchConnection {
    private static let chunkBytes = 256 << 10

    /// The shared core.
    let core: ControlClientConnection
    private var nextId: Int64 = 1

    private init(core: ControlClientConnection) {
        self.core = core
    }

    /// The connected socket.
    var descriptor: Int32 { core.descriptor }
    /// The control socket path, for messages.
    var path: String { core.path }
    /// Whether the daemon closed the connection.
    var closed: Bool { core.isClosed }

    /// Connects to the control socket at `path`.
    static func connect(_ path: String) throws(BenchError) -> BenchConnection {
        do {
            return BenchConnection(core: try ControlClientConnection.connect(to: path, readChunkBytes: chunkBytes))
        } catch {
            throw BenchError(error, path: path)
        }
    }

    /// Connects, retrying every 250 µs until `deadline` while the socket is absent or refuses (a daemon
    /// that is still starting).
    static func connect(_ path: String, retryUntil deadline: UInt64) throws(BenchError) -> BenchConnection {
        while true {
            do {
                return try connect(path)
            } catch {
                guard error.errno == ENOENT || error.errno == ECONNREFUSED, Monotonic.now() < deadline else { throw error }
                Monotonic.sleep(seconds: 0.000_25)
            }
        }
    }

    /// A fresh request id.
    func makeId() -> Int64 {
        defer { nextId += 1 }
        return nextId
    }

    /// A request with a fresh id.
    func request(_ op: String, _ fill: (inout ControlRequest) -> Void = { _ in }) -> ControlRequest {
        var request = ControlRequest(id: makeId(), op: op)
        fill(&request)
        return request
    }

    /// Writes one request line.
    func send(_ request: ControlRequest) throws(BenchError) {
        do { try core.send(request) } catch { throw BenchError(error, path: path) }
    }

    /// Writes `bytes` (one or more complete lines) completely.
    func write(_ bytes: [UInt8]) throws(BenchError) {
        do { try core.write(bytes) } catch { throw BenchError(error, path: path) }
    }

    /// Reads what has arrived without blocking. Returns false once the daemon has closed the connection.
    @discardableResult
    func fill() throws(BenchError) -> Bool {
        do { return try core.fill() } catch { throw BenchError(error, path: path) }
    }

    /// Whether a complete line is already read and waiting for ``nextLine()``.
    var hasBufferedLine: Bool { core.hasBufferedLine }

    /// The next complete line in the buffer, decoded, or nil.
    func nextLine() throws(BenchError) -> ControlResponse? {
        do { return try core.nextResponse() } catch { throw BenchError(error, path: path) }
    }

    /// Waits for the next line, at most until `deadline`.
    func readLine(deadline: UInt64) throws(BenchError) -> ControlResponse {
        let line: ControlResponse?
        do { line = try core.read(until: MonotonicDeadline(deadline)) } catch { throw BenchError(error, path: path) }
        guard let line else { throw BenchError("\(path): no answer in time") }
        return line
    }

    /// Sends one request and waits for its response (skipping other lines); throws on `ok: false`.
    @discardableResult
    func call(_ request: ControlRequest, deadline: UInt64) throws(BenchError) -> ControlResponse {
        try send(request)
        let response: ControlResponse?
        do {
            response = try core.response(to: request.id, until: MonotonicDeadline(deadline))
        } catch {
            throw BenchError(error, path: path)
        }
        guard let response else { throw BenchError("\(path): no answer in time") }
        guard response.ok == true else { throw BenchError("\(path): request failed: \(response.errorDescription)") }
        return response
    }

    /// Starts a `receive` stream (`follow: true`) on `channels`, with what `fill` adds (`autoReply`,
    /// `handle`), and waits for its `ok`. Returns the stream's request id.
    func follow(
        channels: [String], deadline: UInt64, _ fill: (inout ControlRequest) -> Void = { _ in }
    ) throws(BenchError) -> Int64 {
        let stream = request("receive") {
            $0.set("follow", true)
            $0.set("channels", channels)
            fill(&$0)
        }
        return try call(stream, deadline: deadline).id ?? 0
    }

    /// Closes the sending side, which ends the connection's streams.
    func shutdownWrite() { core.shutdownWrite() }
}

extension ControlResponse {
    /// The error of a failed response, for reports.
    var errorDescription: String {
        guard ok == false, let error else { return "not an error" }
        return "error \(error.code): \(error.message)"
    }
}
