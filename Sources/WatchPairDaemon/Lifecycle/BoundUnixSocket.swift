import Glibc

/// A listening Unix stream socket this daemon bound itself, and the file it must remove on exit.
///
/// The daemon binds its sockets before it reports `READY=1`, so that "ready" means "connectable"; the
/// descriptors are then handed to NIO (control socket) or to the transport (link socket, as an adopted
/// fd). A stale file left by a crashed daemon is removed first, but only when nothing listens on it.
struct BoundUnixSocket: Sendable {
    /// The listening descriptor (owned by whoever it is handed to).
    let descriptor: Int32
    /// Where it is bound.
    let path: String
    /// The bound file's (device, inode), so exit only unlinks the file this daemon created.
    private let identity: FileIdentity

    private struct FileIdentity: Sendable, Equatable {
        var device: UInt64
        var inode: UInt64
    }

    /// Binds and listens at `path` with the file mode `mode` (set before `bind` and again after, so no
    /// other mode is ever visible whatever the umask).
    /// - Throws: ``DaemonError`` naming the syscall and errno: path too long, a non-socket file in the
    ///   way, another process listening there, or any failing syscall.
    static func bind(path: String, mode: mode_t, backlog: Int32 = 128) throws(DaemonError) -> BoundUnixSocket {
        guard var address = makeAddress(path) else {
            throw DaemonError(.listen, "cannot bind \(path): the path is empty or longer than 107 bytes")
        }
        try removeStale(path, address: address)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure("socket(AF_UNIX, SOCK_STREAM) for \(path)", errno) }
        var bound = false
        do throws(DaemonError) {
            guard fchmod(fd, mode) == 0 else { throw failure("fchmod(socket for \(path), \(String(mode, radix: 8)))", errno) }
            let rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard rc == 0 else { throw failure("bind(\(path))", errno) }
            bound = true
            guard chmod(path, mode) == 0 else { throw failure("chmod(\(path), \(String(mode, radix: 8)))", errno) }
            guard listen(fd, backlog) == 0 else { throw failure("listen(\(path))", errno) }
            guard let identity = identity(of: path) else { throw failure("lstat(\(path)) after bind", errno) }
            return BoundUnixSocket(descriptor: fd, path: path, identity: identity)
        } catch {
            if bound { _ = unlink(path) }
            _ = close(fd)
            throw error
        }
    }

    /// Unlinks the socket file if it is still the one bound here (never another daemon's). Idempotent.
    func unlinkIfOwned() {
        guard Self.identity(of: path) == identity else { return }
        _ = unlink(path)
    }

    /// Removes a leftover socket file nobody listens on; refuses to touch anything else.
    private static func removeStale(_ path: String, address: sockaddr_un) throws(DaemonError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw failure("lstat(\(path))", errno)
        }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw DaemonError(.listen, "cannot bind \(path): a file that is not a socket is in the way")
        }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw failure("socket(AF_UNIX) to probe \(path)", errno) }
        defer { _ = close(probe) }
        var address = address
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        let code = errno
        if rc == 0 || code == EAGAIN || code == EINPROGRESS {
            throw DaemonError(.listen, "cannot bind \(path): another process listens on it (is the daemon already running?)")
        }
        guard code == ECONNREFUSED else { throw failure("connect(\(path)) to check whether it is stale", code) }
        guard unlink(path) == 0 || errno == ENOENT else { throw failure("unlink(\(path)) of a stale socket", errno) }
    }

    private static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    private static func makeAddress(_ path: String) -> sockaddr_un? {
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

    private static func failure(_ attempt: String, _ code: Int32) -> DaemonError {
        DaemonError(.listen, "\(attempt) failed: \(String(cString: strerror(code))) (errno \(code))")
    }
}
