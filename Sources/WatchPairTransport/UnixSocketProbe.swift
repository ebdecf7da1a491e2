import Glibc
import WatchPairWire

/// Quick, non-blocking looks at a Unix socket path, without NIO: used to tell "installed" and "running"
/// apart and to decide whether a leftover socket file is stale. Both are probed, never read from a
/// file's existence (docs/Design.md, "Links and lifecycle"): a killed app leaves its socket files behind.
enum UnixSocketProbe {
    /// What a non-blocking `connect()` to a path found.
    enum ConnectResult: Equatable {
        /// Something listens there (the connect succeeded, or the backlog is full: `EAGAIN`).
        case listening
        /// The file is a socket nobody listens on (`ECONNREFUSED`): a stale leftover.
        case refused
        /// No such file (`ENOENT`).
        case absent
        /// Any other failure, with the `errno` of the step that failed.
        case failed(step: String, errno: Int32)
    }

    /// Connects to `path` without blocking and closes at once.
    ///
    /// A Unix-domain connect never waits for the listener to `accept`: it succeeds as soon as the
    /// connection is queued, so this is quick and never launches anything through an accept.
    static func connect(to path: String) -> ConnectResult {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failed(step: "socket(AF_UNIX)", errno: errno) }
        defer { _ = Glibc.close(fd) }
        guard let address = UnixSocketAddress(path: path) else { return .failed(step: "sockaddr_un for \(path)", errno: ENAMETOOLONG) }
        let rc = address.withSockaddr { Glibc.connect(fd, $0, $1) }
        if rc == 0 { return .listening }
        switch errno {
        case EAGAIN, EINPROGRESS: return .listening
        case ECONNREFUSED: return .refused
        case ENOENT: return .absent
        case let code: return .failed(step: "connect(\(path))", errno: code)
        }
    }

    /// Whether a process answers on the control socket at `path`: it connects, writes `request` (one
    /// control line) and waits up to `timeout` for the first line back. Any line counts, an error too.
    ///
    /// Proof of a live process, which a connect alone is not: while a killed process is torn down its
    /// listening socket still queues connections until the kernel closes it, and a line written there is
    /// never read (the connection is reset when the listener closes, so the answer is `false` at once).
    /// Blocks the calling thread for at most `timeout` (the socket's send and receive timeouts).
    static func answers(at path: String, request: [UInt8], timeout: Duration) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { _ = Glibc.close(fd) }
        let (seconds, attoseconds) = timeout.components
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            guard setsockopt(fd, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size)) == 0 else { return false }
        }
        guard let address = UnixSocketAddress(path: path), address.withSockaddr({ Glibc.connect(fd, $0, $1) }) == 0 else { return false }
        let written = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard written == request.count else { return false }
        var byte: UInt8 = 0
        while Glibc.recv(fd, &byte, 1, 0) == 1 {
            if byte == UInt8(ascii: "\n") { return true }
        }
        return false
    }

    /// What holds a stream socket file, found without connecting to it.
    enum StreamBinding: Equatable {
        /// A live stream socket is bound to the file: a listener (systemd's socket unit or the app's own).
        case live
        /// No live stream socket owns the file (a file left behind by a killed app, or not a socket), or
        /// nothing is at the path, or it cannot be probed (the `errno` of the failed step).
        case none(errno: Int32)
    }

    /// Whether a live stream socket is bound to `path`, asked without queueing a connection on it.
    ///
    /// A *datagram* socket `connect()`s to the path: the kernel looks the file up, finds the socket bound
    /// to its inode, and refuses the type mismatch with `EPROTOTYPE`; a file no live socket owns gives
    /// `ECONNREFUSED`, a missing one `ENOENT`. Nothing reaches the listener's accept queue, so asking never
    /// socket-activates the peer, and the lookup works across network namespaces (`PrivateNetwork=`),
    /// where `/proc/net/unix` and `sock_diag` would not see the peer's listener. A stream socket that is
    /// bound but not yet listening also reads as live; ``ListeningSocket`` listens before its name
    /// appears, and systemd's socket units do too, so that window never shows at the peer's path.
    static func streamBinding(of path: String) -> StreamBinding {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .none(errno: errno) }
        defer { _ = Glibc.close(fd) }
        guard let address = UnixSocketAddress(path: path) else { return .none(errno: ENAMETOOLONG) }
        let rc = address.withSockaddr { Glibc.connect(fd, $0, $1) }
        // Success means a datagram socket owns the file: not a link listener.
        guard rc != 0 else { return .none(errno: EPROTOTYPE) }
        let code = errno
        return code == EPROTOTYPE ? .live : .none(errno: code)
    }

    /// The `(st_dev, st_ino)` of `path` itself (`lstat`), or `nil` if it does not exist.
    static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), isSocket: (info.st_mode & S_IFMT) == S_IFSOCK)
    }

    /// Which file a path named at one moment, to avoid unlinking a socket another process bound since.
    struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
        var isSocket: Bool
    }

    /// `strerror(code) (errno N)`, for error details.
    static func describe(errno code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }
}
