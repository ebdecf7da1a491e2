import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A listening Unix stream socket the session owns: self-bound at a path, or passed by systemd.
///
/// The session binds its sockets itself (rather than letting the transport bind on `serve`) so that a
/// socket that cannot be bound — typically because the reference daemon for the same side is running —
/// fails `activate()` with a clear error instead of failing later in the background.
struct BoundSocket: Sendable {
    /// The listening descriptor: owned and closed by `close()` when self-bound; an adopted one stays open
    /// for the life of the process (systemd owns it, and a later activation adopts it again).
    let descriptor: Int32
    /// The socket's path, for messages.
    let path: String
    /// Set for a self-bound socket: the file to unlink on close, if it is still this one.
    let ownedFile: FileIdentity?

    /// Binds and listens at `path` with `mode`, after removing a stale socket file nobody listens on.
    ///
    /// - Throws: `SocketError` if a process listens at `path`, `path` is not a socket, or a syscall fails.
    static func bind(path: String, mode: mode_t = 0o600, backlog: Int32 = 128) throws(SocketError) -> BoundSocket {
        guard var address = makeAddress(path) else {
            throw SocketError("binding \(path): the path is empty or longer than 107 bytes", errno: ENAMETOOLONG)
        }
        if let existing = FileIdentity(path: path) {
            guard existing.isSocket else { throw SocketError("binding \(path): it exists and is not a socket", errno: EEXIST) }
            switch probe(path) {
            case 0: throw SocketError("binding \(path): another process listens on it", errno: EADDRINUSE)
            case ECONNREFUSED: _ = unlink(path)
            default: break
            }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket(AF_UNIX) for \(path)", errno: errno) }
        // On Linux the file takes the socket inode's mode at bind: set it first, then fix it after the umask.
        guard fchmod(fd, mode) == 0 else { return try fail(fd, "fchmod of the socket for \(path)") }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { return try fail(fd, "bind(\(path))") }
        guard chmod(path, mode) == 0, listen(fd, backlog) == 0 else {
            let code = errno
            _ = unlink(path)
            _ = Glibc.close(fd)
            throw SocketError("chmod/listen on \(path)", errno: code)
        }
        return BoundSocket(descriptor: fd, path: path, ownedFile: FileIdentity(path: path))
    }

    private static func fail(_ fd: Int32, _ attempt: String) throws(SocketError) -> BoundSocket {
        let code = errno
        _ = Glibc.close(fd)
        throw SocketError(attempt, errno: code)
    }

    /// Wraps a descriptor passed by systemd; `close()` neither closes it nor unlinks its file.
    static func adopt(_ descriptor: Int32, path: String) -> BoundSocket {
        BoundSocket(descriptor: descriptor, path: path, ownedFile: nil)
    }

    /// Closes the descriptor and unlinks a self-bound file unless another process has replaced it.
    func close() {
        guard let ownedFile else { return }
        if FileIdentity(path: path) == ownedFile { _ = unlink(path) }
        _ = Glibc.close(descriptor)
    }

    /// Whether a connection is already waiting to be accepted (non-blocking `poll`): a socket-activated
    /// start by the counterpart, i.e. a background launch.
    var hasPendingConnection: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let result = poll(&entry, 1, 0)
            if result < 0, errno == EINTR { continue }
            return result > 0 && (entry.revents & Int16(POLLIN)) != 0
        }
    }

    /// 0 when something listens at `path`, else the `errno` of a non-blocking connect.
    static func probe(_ path: String) -> Int32 {
        guard var address = makeAddress(path) else { return ENAMETOOLONG }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { _ = Glibc.close(fd) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if result == 0 || errno == EAGAIN || errno == EINPROGRESS { return 0 }
        return errno
    }

    static func makeAddress(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// Which file a path named (device, inode, type), to avoid unlinking a socket bound by someone else since.
    struct FileIdentity: Sendable, Hashable {
        var device: UInt64
        var inode: UInt64
        var isSocket: Bool

        init?(path: String) {
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            isSocket = (info.st_mode & S_IFMT) == S_IFSOCK
        }
    }
}

/// A socket syscall that failed: what was attempted and the `errno`.
struct SocketError: Error, Sendable, Hashable, CustomStringConvertible {
    var attempt: String
    var errno: Int32

    init(_ attempt: String, errno: Int32) {
        self.attempt = attempt
        self.errno = errno
    }

    var description: String { "\(attempt) failed: \(String(cString: strerror(errno))) (errno \(errno))" }
}
