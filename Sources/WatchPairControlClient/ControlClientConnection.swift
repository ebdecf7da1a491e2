import Glibc
import WatchPairWire

/// A connection to a daemon's control socket (docs/ControlProtocol.md): the one core under wcctl's
/// client, wcbench's connections and ``AsyncControlClientConnection``.
///
/// It writes each request line with one `send(2)` (many may be in flight: the daemon matches responses
/// by id), reads without blocking into a ``LineBuffer`` whose storage and read chunk are reused, decodes
/// each line with the control codec and matches responses by id (``ControlResponse/isResponse(to:soleRequest:)``).
/// It only ever waits in `poll(2)`: ``read(until:interrupt:)`` for one connection, ``readable(_:interrupt:until:)``
/// for several, or the caller's own loop around ``fill()`` and ``nextResponse()``.
///
/// The buffer holds at most one unfinished line of `maxResponseLineBytes` plus one read chunk. Not
/// thread-safe: one owner at a time. The descriptor is closed on `deinit`.
public final class ControlClientConnection {
    /// The daemon's limit on one request line (1 MiB).
    public static let maxRequestLineBytes = 1 << 20
    /// The longest response line read by default (16 MiB): larger than the request limit because a
    /// `transfers` listing carries many payloads.
    public static let maxResponseLineBytes = 16 << 20
    /// Bytes asked of one `recv(2)` by default.
    public static let defaultReadChunkBytes = 1 << 16

    /// The control socket's path.
    public let path: String
    /// The connected socket, for a caller's own `poll(2)` or `shutdown(2)`.
    public let descriptor: Int32
    /// Whether the daemon has closed the connection (lines read before remain to be taken).
    public private(set) var isClosed = false
    private var lines: LineBuffer
    private var chunk: [UInt8]

    private init(descriptor: Int32, path: String, maxResponseLineBytes: Int, readChunkBytes: Int) {
        self.descriptor = descriptor
        self.path = path
        lines = LineBuffer(maxLineBytes: maxResponseLineBytes, retainedCapacity: max(1 << 16, readChunkBytes))
        chunk = [UInt8](repeating: 0, count: readChunkBytes)
    }

    deinit { _ = close(descriptor) }

    /// Connects to the control socket at `path`.
    ///
    /// - Throws: `.system` (``UnixStreamSocket/connect(path:)``).
    public static func connect(
        to path: String, maxResponseLineBytes: Int = maxResponseLineBytes, readChunkBytes: Int = defaultReadChunkBytes
    ) throws(ControlClientError) -> ControlClientConnection {
        let fd = try UnixStreamSocket.connect(path: path)
        return ControlClientConnection(
            descriptor: fd, path: path, maxResponseLineBytes: maxResponseLineBytes, readChunkBytes: readChunkBytes)
    }

    /// Writes one request line, encoded by the request itself (``ControlLine/lineBytes``).
    ///
    /// - Throws: `.requestTooLong` over ``maxRequestLineBytes`` (nothing is sent), else as ``write(_:)``.
    public func send(_ request: some ControlLine) throws(ControlClientError) {
        try write(Self.requestLine(request))
    }

    /// The line of `request` (``ControlLine/lineBytes``), checked against ``maxRequestLineBytes``.
    ///
    /// - Throws: `.requestTooLong`.
    public static func requestLine(_ request: some ControlLine) throws(ControlClientError) -> [UInt8] {
        let line = request.lineBytes
        guard line.count <= maxRequestLineBytes + 1 else {
            throw .requestTooLong(bytes: line.count, limit: maxRequestLineBytes)
        }
        return line
    }

    /// Writes `bytes` (whole lines, or anything a test wants the daemon to see) completely.
    ///
    /// - Throws: `.system(operation: "send", …)`: `EPIPE`/`ECONNRESET` when the daemon has gone away.
    public func write(_ bytes: [UInt8]) throws(ControlClientError) {
        try UnixStreamSocket.send(descriptor, bytes, waiting: true)
    }

    /// Reads what has arrived, one chunk at most, without waiting.
    ///
    /// - Returns: false once the daemon has closed the connection.
    /// - Throws: `.system(operation: "recv", …)`.
    @discardableResult
    public func fill() throws(ControlClientError) -> Bool {
        guard !isClosed else { return false }
        let received = chunk.withUnsafeMutableBytes { raw in
            Result { () throws(ControlClientError) in try UnixStreamSocket.receive(descriptor, into: raw) }
        }
        guard let count = try received.get() else { return true }
        guard count > 0 else {
            isClosed = true
            return false
        }
        lines.append(chunk[0..<count])
        return true
    }

    /// Whether a complete line is already read and waiting for ``nextResponse()``: `poll(2)` cannot see
    /// it (a stream's first event that came in the same read as its `ok`).
    public var hasBufferedLine: Bool { lines.hasCompleteLine }

    /// The next complete line already read, decoded; nil when none is. Blank lines are skipped.
    ///
    /// - Throws: `.lineTooLong`, `.invalidLine`; the stream cannot be read further after either.
    public func nextResponse() throws(ControlClientError) -> ControlResponse? {
        while true {
            let line: ArraySlice<UInt8>
            do {
                guard let next = try lines.nextLine() else { return nil }
                line = next
            } catch {
                throw .lineTooLong(limit: error.limit)
            }
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
            do {
                return try ControlResponse(line: line)
            } catch {
                throw .invalidLine(problem: error.problem, excerpt: String(decoding: line.prefix(300), as: UTF8.self))
            }
        }
    }

    /// Waits for the next line, at most until `deadline`.
    ///
    /// - Returns: the line, or nil when `deadline` passed or `interrupt` became readable first.
    /// - Throws: `.closed` when the daemon closed the connection, else as ``fill()`` and ``nextResponse()``.
    public func read(until deadline: some PollDeadline, interrupt: Int32? = nil) throws(ControlClientError) -> ControlResponse? {
        while true {
            if let response = try nextResponse() { return response }
            if isClosed { throw .closed }
            let ready = try Self.readable(CollectionOfOne(self), interrupt: interrupt, until: deadline)
            if ready.isEmpty || ready.last == 1 { return nil }
            try fill()
        }
    }

    /// Waits for the response to request `id` (``ControlResponse/isResponse(to:soleRequest:)``), at most
    /// until `deadline`; other lines (stream events, other responses) are read and dropped.
    ///
    /// - Returns: the response, ok or not; nil when `deadline` passed first.
    /// - Throws: as ``read(until:interrupt:)``.
    public func response(to id: Int64, soleRequest: Bool = false, until deadline: some PollDeadline) throws(ControlClientError) -> ControlResponse? {
        while let response = try read(until: deadline) {
            if response.isResponse(to: id, soleRequest: soleRequest) { return response }
        }
        return nil
    }

    /// Closes the sending side: the daemon ends this connection's streams and requests.
    public func shutdownWrite() {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }
}
