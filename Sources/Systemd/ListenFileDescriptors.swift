import CSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// File descriptors passed by systemd through socket activation, by name (`sd_listen_fds_with_names`).
///
/// systemd passes sockets as fds 3, 4, … and names them with `FileDescriptorName=` (default: the socket
/// unit's name, e.g. `phoned.socket`). `systemd-socket-activate` without `--fdname` sets no names, and
/// libsystemd then reports each as `"unknown"`. Ownership of the fds passes to the caller.
public struct ListenFileDescriptors: Sendable {
    /// The name libsystemd reports for an fd when `LISTEN_FDNAMES` is unset.
    public static let unnamed = "unknown"

    /// Every passed fd with its name, in fd order (3, 4, …). Empty outside socket activation.
    public let all: [(name: String, fd: Int32)]

    /// Wraps an explicit list, e.g. for tests or fds obtained another way.
    public init(_ all: [(name: String, fd: Int32)]) {
        self.all = all
    }

    /// Reads `LISTEN_FDS`/`LISTEN_PID`/`LISTEN_FDNAMES` with `sd_listen_fds_with_names(1, …)`.
    ///
    /// The variables are unset afterwards (so child processes do not inherit them) and the fds get
    /// `FD_CLOEXEC`; a second call therefore returns an empty set. Returns an empty set outside socket
    /// activation, or when `LISTEN_PID` names another process.
    /// - Throws: ``SystemdError`` with the errno libsystemd reported (e.g. malformed `LISTEN_FDS`).
    public static func fromEnvironment() throws(SystemdError) -> ListenFileDescriptors {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        let count = sd_listen_fds_with_names(1, &names)
        defer {
            if let names {
                var index = 0
                while let name = names[index] {
                    free(name)
                    index += 1
                }
                free(names)
            }
        }
        guard count >= 0 else {
            throw SystemdError(operation: "sd_listen_fds_with_names", returnValue: count)
        }
        var all: [(name: String, fd: Int32)] = []
        all.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let name = names?[index].map { String(cString: $0) } ?? Self.unnamed
            all.append((name: name, fd: Int32(SD_LISTEN_FDS_START) + Int32(index)))
        }
        return ListenFileDescriptors(all)
    }

    /// Whether no fd was passed.
    public var isEmpty: Bool { self.all.isEmpty }

    /// The fd passed with `FileDescriptorName=name`, if it is a listening `AF_UNIX` stream socket.
    ///
    /// Fallback: when no fd carries `name` and exactly one fd was passed under a default name
    /// (``unnamed``, as `systemd-socket-activate` without `--fdname` gives, or a unit name ending in
    /// `.socket`, systemd's default), that fd is returned, again only if it is a listening `AF_UNIX`
    /// stream socket. An fd explicitly named something else is never taken.
    /// - Returns: the fd, or `nil` when none matches or the match is not a listening Unix stream socket.
    public func fd(named name: String) -> Int32? {
        if let match = self.all.first(where: { $0.name == name }) {
            return Self.isUnixStreamListener(match.fd) ? match.fd : nil
        }
        guard self.all.count == 1, let only = self.all.first,
            only.name == Self.unnamed || only.name.hasSuffix(".socket")
        else {
            return nil
        }
        return Self.isUnixStreamListener(only.fd) ? only.fd : nil
    }

    /// Whether `fd` is an `AF_UNIX` `SOCK_STREAM` socket in listening state (`sd_is_socket_unix`).
    public static func isUnixStreamListener(_ fd: Int32) -> Bool {
        sd_is_socket_unix(fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0
    }
}
