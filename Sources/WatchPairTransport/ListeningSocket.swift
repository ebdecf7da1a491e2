import Glibc
import Logging
import WatchPairCore
import WatchPairWire

/// A listening Unix socket descriptor ready to hand to NIO, and what to clean up when serving ends.
/// Used for the peer-link listener here and, by the host (WatchPairHost) of the daemons and of `WCSession`, for
/// their control sockets: one implementation of "bind safely, unlink only what is ours".
///
/// Both listener kinds end up here so NIO always adopts a descriptor (`ServerBootstrap.bind(_:)`):
/// binding ourselves lets the mode be set before the file exists (`fchmod` before `bind`) and the
/// file be unlinked only if it is still the one bound here; NIO's own `bind(unixDomainSocketPath:)`
/// would unlink whatever socket sits at the path on close.
public struct ListeningSocket: Sendable {
    /// The descriptor NIO takes over (it closes it when the server channel closes).
    public var descriptor: Int32
    /// The path for logs and connection descriptions.
    public var path: String
    /// Set for a self-bound socket: the file to unlink on exit, if it is still this one.
    var ownedFile: (path: String, identity: UnixSocketProbe.FileIdentity)?

    /// Binds and listens at `path`, after removing a stale socket file nobody listens on.
    ///
    /// Throws `TransportError(.listenFailed)` if a process listens at `path`, if `path` is not a socket,
    /// or if a syscall fails (the detail names it and its errno).
    public static func bind(path: String, mode: mode_t, backlog: Int32 = 128, logger: Logger) throws -> ListeningSocket {
        guard UnixSocketAddress(path: path) != nil else {
            throw TransportError(.listenFailed, "cannot bind \(path): path empty or longer than \(UnixSocketAddress.maxPathBytes) bytes")
        }
        if let existing = UnixSocketProbe.identity(of: path) {
            guard existing.isSocket else {
                throw TransportError(.listenFailed, "cannot bind \(path): it exists and is not a socket")
            }
            switch UnixSocketProbe.connect(to: path) {
            case .listening:
                throw TransportError(.listenFailed, "another process listens on \(path)")
            case .refused:
                logger.info("removing stale socket file", metadata: ["path": "\(path)"])
                if unlink(path) != 0 && errno != ENOENT {
                    throw failure("unlink(\(path)) of a stale socket", errno)
                }
            case .absent:
                break
            case .failed(let step, let code):
                throw failure("\(step), checking whether \(path) is stale,", code)
            }
        }

        // The socket listens before its name appears: bound and listening under a temporary name, then
        // hard-linked into place. A peer that sees the file appear (inotify) and probes it at once would
        // otherwise be refused in the window between bind() and listen(), and think the app not running.
        let staging = "\(path).\(getpid()).new"
        guard let stagingAddress = UnixSocketAddress(path: staging) else {
            let limit = UnixSocketAddress.maxPathBytes - staging.utf8.count + path.utf8.count
            throw TransportError(.listenFailed, "cannot bind \(path): path longer than \(limit) bytes")
        }
        _ = unlink(staging)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure("socket(AF_UNIX, SOCK_STREAM)", errno) }
        do {
            // On Linux bind() gives the file the socket inode's mode (minus umask): no window with
            // wider permissions. The chmod after bind then makes the mode exact whatever the umask.
            guard fchmod(fd, mode) == 0 else { throw failure("fchmod(socket, \(String(mode, radix: 8)))", errno) }
            let rc = stagingAddress.withSockaddr { Glibc.bind(fd, $0, $1) }
            guard rc == 0 else { throw failure("bind(\(staging))", errno) }
            defer { _ = unlink(staging) }
            guard chmod(staging, mode) == 0 else { throw failure("chmod(\(staging), \(String(mode, radix: 8)))", errno) }
            guard listen(fd, backlog) == 0 else { throw failure("listen(\(staging))", errno) }
            // link() never replaces: a socket another process put at `path` since the check above wins.
            guard link(staging, path) == 0 else {
                if errno == EEXIST { throw TransportError(.listenFailed, "another process created \(path) while this one was binding") }
                throw failure("link(\(staging), \(path))", errno)
            }
            guard let identity = UnixSocketProbe.identity(of: path) else { throw failure("lstat(\(path)) after link", errno) }
            return ListeningSocket(descriptor: fd, path: path, ownedFile: (path, identity))
        } catch {
            _ = close(fd)
            throw error
        }
    }

    /// Duplicates an inherited listening socket (`F_DUPFD_CLOEXEC`) so NIO can own and close the copy.
    ///
    /// Throws `TransportError(.listenFailed)` if `descriptor` is not an open `AF_UNIX` stream socket.
    public static func adopt(descriptor: Int32) throws -> ListeningSocket {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { throw failure("fcntl(\(descriptor), F_DUPFD_CLOEXEC) of the adopted socket", errno) }
        do {
            let type = try intOption(copy, SO_TYPE, "adopted fd \(descriptor)")
            let domain = try intOption(copy, SO_DOMAIN, "adopted fd \(descriptor)")
            guard type == Int32(SOCK_STREAM.rawValue), domain == AF_UNIX else {
                throw TransportError(
                    .listenFailed,
                    "adopted fd \(descriptor) is not an AF_UNIX stream socket (domain \(domain), type \(type))"
                )
            }
            return ListeningSocket(descriptor: copy, path: localPath(copy) ?? "fd:\(descriptor)", ownedFile: nil)
        } catch {
            _ = close(copy)
            throw error
        }
    }

    /// Unlinks the self-bound socket file, unless another process has replaced it since.
    public func removeOwnedFile() {
        guard let owned = self.ownedFile, UnixSocketProbe.identity(of: owned.path) == owned.identity else { return }
        _ = unlink(owned.path)
    }

    private static func intOption(_ fd: Int32, _ name: Int32, _ what: String) throws -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, name, &value, &length) == 0 else {
            throw failure("getsockopt(SOL_SOCKET, \(name)) on \(what)", errno)
        }
        return value
    }

    /// The path a Unix socket is bound to (`getsockname`), or `nil` for an unnamed or abstract socket.
    private static func localPath(_ fd: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let rc = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard rc == 0 else { return nil }
        return UnixSocketAddress(address)?.path
    }

    private static func failure(_ attempt: String, _ code: Int32) -> TransportError {
        TransportError(.listenFailed, "\(attempt) failed: \(UnixSocketProbe.describe(errno: code))")
    }
}
