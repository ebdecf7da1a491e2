import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The link socket systemd passes under socket activation (`LISTEN_FDS`), read once per process.
///
/// A few lines of `sd_listen_fds_with_names` so the module does not need libsystemd: the variables are
/// honoured only when `LISTEN_PID` is this process, then unset so child processes do not inherit them.
/// The fd named as configured (`listenFDName`, default `phoned`/`watchd`, as the daemons) is taken;
/// failing that, a single passed fd with systemd's default name (`*.socket`) or none. It must be a
/// listening `AF_UNIX` stream socket.
enum SystemdSockets {
    /// fds passed by systemd start here.
    static let firstDescriptor: Int32 = 3

    private static let taken = Mutex<(read: Bool, fds: [(name: String, fd: Int32)])>((false, []))

    /// The passed link socket named `name`, or nil outside socket activation.
    static func linkDescriptor(named name: String) -> Int32? {
        let fds = taken.withLock { state -> [(name: String, fd: Int32)] in
            if !state.read {
                state.read = true
                state.fds = readEnvironment()
            }
            return state.fds
        }
        let match = fds.first { $0.name == name }
            ?? (fds.count == 1 && (fds[0].name == "unknown" || fds[0].name.hasSuffix(".socket")) ? fds.first : nil)
        guard let match, isUnixStreamListener(match.fd) else { return nil }
        return match.fd
    }

    private static func readEnvironment() -> [(name: String, fd: Int32)] {
        let environment = ProcessInfo.processInfo.environment
        defer {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
        }
        guard let pid = environment["LISTEN_PID"].flatMap({ Int32($0) }), pid == getpid(),
            let count = environment["LISTEN_FDS"].flatMap({ Int32($0) }), count > 0, count < 1024
        else { return [] }
        let names = environment["LISTEN_FDNAMES"].map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) } ?? []
        return (0..<count).map { index in
            let fd = firstDescriptor + index
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            return (name: Int(index) < names.count ? names[Int(index)] : "unknown", fd: fd)
        }
    }

    static func isUnixStreamListener(_ fd: Int32) -> Bool {
        func option(_ name: Int32) -> Int32? {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(fd, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
        }
        return option(SO_DOMAIN) == AF_UNIX && option(SO_TYPE) == Int32(SOCK_STREAM.rawValue) && option(SO_ACCEPTCONN) == 1
    }
}
