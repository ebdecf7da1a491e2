import Glibc
import WatchPairWire

/// A lean client connection to a daemon's control socket (docs/ControlProtocol.md) for the timed loops.
///
/// Requests and responses go through the control codec (`ControlRequest.lineBytes`,
/// `ControlResponse(line:)`), as wcctl's and the daemons' do. Each request is written with one `send(2)`;
/// many may be in flight (the daemon runs
/// up to 64 per connection and matches responses by id). Reads are non-blocking into a buffer that holds
/// at most one unfinished line plus one 256 KiB chunk; lines longer than 16 MiB fail the run. Callers
/// wait for data with ``Poller``. wcctl's `ControlClient` is used for the untimed requests (`status`).
final class BenchConnection {
    /// The longest line accepted from the daemon.
    static let maxLineBytes = 16 << 20
    private static let chunkBytes = 256 << 10

    /// The connected socket.
    let descriptor: Int32
    /// The control socket path, for messages.
    let path: String
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var chunk = [UInt8](repeating: 0, count: BenchConnection.chunkBytes)
    private var nextId: Int64 = 1
    /// Whether the daemon closed the connection.
    private(set) var closed = false

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Connects to the control socket at `path`.
    static func connect(_ path: String) throws(BenchError) -> BenchConnection {
        let fd = try UnixSockets.connect(path)
        return BenchConnection(descriptor: fd, path: path)
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
        try write(request.lineBytes)
    }

    /// Writes `bytes` (one or more complete lines) completely.
    func write(_ bytes: [UInt8]) throws(BenchError) {
        let failure: Int32? = bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
        if let failure { throw BenchError.system("cannot write to \(path)", errno: failure) }
    }

    /// Reads what has arrived without blocking. Returns false once the daemon has closed the connection.
    @discardableResult
    func fill() throws(BenchError) -> Bool {
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                if start > 0 && start >= buffer.count / 2 {
                    buffer.removeFirst(start)
                    scanned -= start
                    start = 0
                }
                buffer.append(contentsOf: chunk[0..<n])
                if n < chunk.count { return true }
                continue
            }
            if n == 0 {
                closed = true
                return false
            }
            switch errno {
            case EINTR: continue
            case EAGAIN: return true
            case ECONNRESET:
                closed = true
                return false
            default: throw BenchError.system("cannot read from \(path)", errno: errno)
            }
        }
    }

    /// Whether a complete line is already read and waiting for ``nextLine()``: a line that came in the same
    /// read as an earlier one (a stream's first event with its `ok`) makes the socket look idle to `poll`.
    var hasBufferedLine: Bool { buffer[scanned...].contains(UInt8(ascii: "\n")) }

    /// The next complete line in the buffer, decoded, or nil.
    func nextLine() throws(BenchError) -> ControlResponse? {
        guard let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) else {
            scanned = buffer.count
            if buffer.count - start > Self.maxLineBytes {
                throw BenchError("\(path) sent a line over \(Self.maxLineBytes) bytes")
            }
            return nil
        }
        let line: ControlResponse
        do {
            line = try ControlResponse(line: buffer[start..<newline])
        } catch {
            let text = String(decoding: buffer[start..<min(newline, start + 300)], as: UTF8.self)
            throw BenchError("\(path) sent a line that is not a response (\(error.problem)): \(text)")
        }
        start = newline + 1
        scanned = start
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            scanned = 0
        }
        return line
    }

    /// Waits for the next line, at most until `deadline`.
    func readLine(deadline: UInt64) throws(BenchError) -> ControlResponse {
        while true {
            if let line = try nextLine() { return line }
            if closed { throw BenchError("\(path): the daemon closed the control connection") }
            guard try Poller.waitReadable([self], deadline: deadline) else {
                throw BenchError("\(path): no answer in time")
            }
            try fill()
        }
    }

    /// Sends one request and waits for its response (skipping other lines); throws on `ok: false`.
    @discardableResult
    func call(_ request: ControlRequest, deadline: UInt64) throws(BenchError) -> ControlResponse {
        try send(request)
        while true {
            let line = try readLine(deadline: deadline)
            guard line.id == request.id, line.event == nil else { continue }
            guard line.ok == true else { throw BenchError("\(path): request failed: \(line.errorDescription)") }
            return line
        }
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
    func shutdownWrite() { shutdown(descriptor, Int32(SHUT_WR)) }
}

extension ControlResponse {
    /// The error of a failed response, for reports.
    var errorDescription: String {
        guard ok == false, let error else { return "not an error" }
        return "error \(error.code): \(error.message)"
    }
}
