import Testing
import Systemd
import WatchPairWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Tests that change process-wide state (environment variables, fd 3, fds visible to `poll`) run one at
/// a time: setenv racing getenv on another thread is undefined, and fd 3 is a single slot. Other suites
/// must not run beside them either (fd 3 may be another test's socket): scripts/test.sh runs them in a
/// `swift test` of their own (`--filter ProcessStateTests`) and skips them in the parallel run.
@Suite(.serialized) enum ProcessStateTests {}

/// A short temporary directory (sun_path is 108 bytes), removed with everything in it by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/wpsd.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemdError(operation: "mkdtemp", errno: errno) }
        self.path = String(cString: made)
    }

    func remove() {
        if let dir = opendir(self.path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { unlink("\(self.path)/\(name)") }
            }
            closedir(dir)
        }
        rmdir(self.path)
    }
}

/// Creates an `AF_UNIX` socket of `type` bound to `path`, listening when `listen` is true.
func makeUnixSocket(type: Int32, path: String, listen shouldListen: Bool) throws -> Int32 {
    let fd = socket(AF_UNIX, type | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw SystemdError(operation: "socket", errno: errno) }
    guard let address = UnixSocketAddress(path: path) else {
        close(fd)
        throw SystemdError(operation: "bind \(path)", errno: ENAMETOOLONG)
    }
    guard address.withSockaddr({ bind(fd, $0, $1) }) == 0 else {
        let code = errno
        close(fd)
        throw SystemdError(operation: "bind \(path)", errno: code)
    }
    if shouldListen && listen(fd, 8) != 0 {
        let code = errno
        close(fd)
        throw SystemdError(operation: "listen \(path)", errno: code)
    }
    return fd
}

/// Connects a new `AF_UNIX` stream socket to `path`.
func connectUnixStream(path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw SystemdError(operation: "socket", errno: errno) }
    guard let address = UnixSocketAddress(path: path) else {
        close(fd)
        throw SystemdError(operation: "connect \(path)", errno: ENAMETOOLONG)
    }
    guard address.withSockaddr({ connect(fd, $0, $1) }) == 0 else {
        let code = errno
        close(fd)
        throw SystemdError(operation: "connect \(path)", errno: code)
    }
    return fd
}

/// Receives one datagram from `fd`, waiting at most `timeoutMilliseconds` as a safety net.
func receiveDatagram(_ fd: Int32, timeoutMilliseconds: Int32 = 2000) -> String? {
    var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&pollFD, 1, timeoutMilliseconds) == 1 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
    guard count >= 0 else { return nil }
    return String(decoding: buffer.prefix(count), as: UTF8.self)
}

/// Saves the given environment variables and puts them back (set or unset) on `restore()`.
struct EnvironmentSnapshot {
    private let saved: [(String, String?)]

    init(_ names: [String]) {
        self.saved = names.map { name in (name, getenv(name).map { String(cString: $0) }) }
    }

    func restore() {
        for (name, value) in self.saved {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
    }
}

/// Whether journald's native socket exists, checked independently of the code under test.
func journalSocketExists() -> Bool {
    access("/run/systemd/journal/socket", F_OK) == 0
}

/// Runs `body` with `fd` duplicated onto fd 3 (systemd's first passed fd), then puts back whatever
/// fd 3 was (or closes it), so the process is left as found.
func withFD3(_ fd: Int32, _ body: () throws -> Void) throws {
    let previousFlags = fcntl(3, F_GETFD)
    let saved = previousFlags >= 0 ? fcntl(3, F_DUPFD_CLOEXEC, 10) : -1
    guard dup2(fd, 3) == 3 else { throw SystemdError(operation: "dup2 to fd 3", errno: errno) }
    defer {
        if saved >= 0 {
            dup2(saved, 3)
            _ = fcntl(3, F_SETFD, previousFlags)
            close(saved)
        } else {
            close(3)
        }
    }
    try body()
}
