import Foundation
import Synchronization
import WatchPairWire

/// A bare control-socket client: writes whatever bytes a test wants and collects the lines that come
/// back, so tests can send what `wcctl` never would (garbage, unknown ops, a handler that never answers).
///
/// Responses are read by a thread of their own into ``lines``; writes use `MSG_NOSIGNAL`, so a daemon
/// that closes the connection gives `EPIPE`, never a SIGPIPE that would kill the test runner.
final class RawControlClient: Sendable {
    /// Why a socket call failed.
    struct SocketError: Error, CustomStringConvertible {
        /// What was attempted.
        var attempted: String
        /// `errno` after the failed call.
        var code: Int32
        /// The attempt and the system's text for `code`.
        var description: String { "\(attempted): \(String(cString: strerror(code))) (errno \(code))" }
    }

    /// Every line the daemon wrote, in order; finished when the daemon closed the connection.
    let lines = LineLog()
    private let fd: Int32
    private let closed = Mutex(false)

    /// Connects to the control socket at `path`.
    init(path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError(attempted: "socket(AF_UNIX)", code: errno) }
        guard let address = UnixSocketAddress(path: path) else {
            Glibc.close(fd)
            throw SocketError(attempted: "connect(\(path)): path too long", code: ENAMETOOLONG)
        }
        let connected = address.withSockaddr { connect(fd, $0, $1) }
        guard connected == 0 else {
            let code = errno
            Glibc.close(fd)
            throw SocketError(attempted: "connect(\(path))", code: code)
        }
        self.fd = fd
        // The reader owns a duplicate, so `close()` here and its end of file are independent.
        lines.drain(fileDescriptor: fcntl(fd, F_DUPFD_CLOEXEC, 0), name: "raw \(path)")
    }

    /// Writes `bytes` completely (blocking while the socket buffer is full).
    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SocketError(attempted: "send(\(bytes.count - offset) bytes to the control socket)", code: errno)
            }
            offset += n
        }
    }

    /// Writes one line: `text` and a newline.
    func send(line text: String) throws {
        try write(Array((text + "\n").utf8))
    }

    /// Writes a request object as one JSON line.
    func send(_ request: JSONValue) throws {
        try send(line: request.canonicalText)
    }

    /// The lines so far decoded with the control codec, as JSON (lines that are not responses or stream
    /// events are left out; tests read ``lines`` for those).
    var responses: [JSONValue] {
        lines.lines.compactMap(Self.decode)
    }

    /// Waits for the first line that is a response (not a stream event) with `id`.
    func response(id: JSONValue, timeout: Duration = .seconds(20)) async -> JSONValue? {
        let matches: @Sendable (String) -> Bool = { line in
            guard let value = Self.decode(line) else { return false }
            return value["id"] == id && value["event"] == nil
        }
        await lines.wait(timeout: timeout) { $0.contains(where: matches) }
        return lines.lines.first(where: matches).flatMap(Self.decode)
    }

    /// One line through the control codec (`ControlResponse(line:)`), as JSON; nil when it is not a response.
    @Sendable static func decode(_ line: String) -> JSONValue? {
        (try? ControlResponse(line: line))?.json
    }

    /// Closes our sending side: the daemon ends this connection's streams.
    func shutdownWrite() {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Closes the connection (the reader thread then sees end of file). Idempotent.
    func close() {
        closed.withLock { closed in
            guard !closed else { return }
            closed = true
            _ = shutdown(fd, Int32(SHUT_RDWR))
            _ = Glibc.close(fd)
        }
    }
}
