import Glibc
import WatchPairWire

/// A failed socket system call: what was attempted, on which path, and `errno`.
public struct SocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The system call or step, e.g. `connect`.
    public var operation: String
    /// The socket path.
    public var path: String
    /// The `errno` the call left.
    public var errno: Int32

    /// `connect /path: No such file or directory`.
    public var description: String { "\(operation) \(path): \(CLIError.errorString(errno))" }
}

/// A connected, blocking Unix-domain stream socket (plain POSIX calls, no event loop).
///
/// `wcctl` is single-threaded and talks to one daemon at a time, so a blocking socket with `poll(2)` for
/// deadlines and for the interrupt pipe is all it needs. Writes use `MSG_NOSIGNAL`, so a peer that has
/// gone away is an `EPIPE` error, never a `SIGPIPE`. The descriptor is closed on `deinit`.
final class UnixSocket {
    /// The outcome of one `read`.
    enum ReadOutcome: Equatable {
        /// Bytes arrived.
        case bytes([UInt8])
        /// The peer closed the connection (or reset it).
        case endOfStream
        /// The interrupt descriptor became readable (a signal arrived).
        case interrupted
        /// The deadline passed with nothing to read.
        case timedOut
    }

    /// The longest path a Unix socket address holds (107 bytes on Linux).
    static var maxPathBytes: Int { UnixSocketAddress.maxPathBytes }

    let descriptor: Int32
    let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { _ = close(descriptor) }

    /// Connects to the socket at `path`.
    ///
    /// - Throws: `SocketError` with the `errno` of `socket` or `connect` (`ENOENT`: no socket file;
    ///   `ECONNREFUSED`: nobody listening), or `ENAMETOOLONG` when the path does not fit `sun_path`.
    static func connect(path: String) throws(SocketError) -> UnixSocket {
        guard let address = UnixSocketAddress(path: path) else {
            throw SocketError(operation: "connect", path: path, errno: path.isEmpty ? ENOENT : ENAMETOOLONG)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError(operation: "socket", path: path, errno: errno) }
        let sock = UnixSocket(descriptor: fd, path: path)

        while true {
            let rc = address.withSockaddr { Glibc.connect(fd, $0, $1) }
            if rc == 0 { return sock }
            if errno == EINTR { continue }
            throw SocketError(operation: "connect", path: path, errno: errno)
        }
    }

    /// Writes all of `bytes`, blocking until the kernel has taken them.
    ///
    /// - Throws: `SocketError` (`EPIPE`/`ECONNRESET` when the daemon has gone away).
    func writeAll(_ bytes: [UInt8]) throws(SocketError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw SocketError(operation: "write to", path: path, errno: errno)
            }
            offset += n
        }
    }

    /// Reads what is available (at most `maxBytes`), waiting until `deadline` (nil: forever) and
    /// returning early when `interruptDescriptor` becomes readable.
    ///
    /// - Throws: `SocketError` for failures other than a reset, which reads as `endOfStream`.
    func read(
        maxBytes: Int, deadline: ContinuousClock.Instant?, interruptDescriptor: Int32?
    ) throws(SocketError) -> ReadOutcome {
        while true {
            var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            if let interruptDescriptor {
                fds.append(pollfd(fd: interruptDescriptor, events: Int16(POLLIN), revents: 0))
            }
            let timeout = deadline?.pollTimeout ?? -1
            if timeout == 0 { return .timedOut }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                throw SocketError(operation: "poll", path: path, errno: errno)
            }
            if ready == 0 { continue }  // Re-checks the deadline at the top.
            if fds.count > 1 && fds[1].revents != 0 { return .interrupted }

            var buffer = [UInt8](repeating: 0, count: maxBytes)
            let n = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if n > 0 { return .bytes(Array(buffer[0..<n])) }
            if n == 0 { return .endOfStream }
            switch errno {
            case EINTR, EAGAIN: continue
            case ECONNRESET: return .endOfStream
            default: throw SocketError(operation: "read from", path: path, errno: errno)
            }
        }
    }
}

extension ContinuousClock.Instant {
    /// Milliseconds from now to this deadline for `poll(2)`, rounded up so a wait never ends early;
    /// 0 once the deadline has passed.
    var pollTimeout: Int32 {
        let remaining = ContinuousClock.now.duration(to: self)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }
}
