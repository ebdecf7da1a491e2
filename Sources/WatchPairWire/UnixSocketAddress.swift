import Glibc

/// The `sockaddr_un` of a Unix-domain socket path: the one place that builds it, for every module that
/// binds or connects one (`WatchPairTransport`, `wcctl`, `wcbench`, the tests).
///
/// It lives in `WatchPairWire` because building the address is pure data (a length check and a copy
/// into a C struct, no system call), and `WatchPairWire` is the one module below all of those users:
/// a module of its own would add a target for one type. The system calls stay with the callers, which
/// pass the pointer ``withSockaddr(_:)`` lends them to `bind(2)`, `connect(2)` and the like.
public struct UnixSocketAddress: Sendable, Hashable {
    /// The longest path `sun_path` holds: 107 bytes on Linux (108 with the terminating NUL).
    public static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// The socket path.
    public let path: String

    /// The address of `path`, or nil when it is empty or longer than ``maxPathBytes`` bytes (the
    /// callers' `ENAMETOOLONG`).
    public init?(path: String) {
        guard !path.utf8.isEmpty, path.utf8.count <= Self.maxPathBytes else { return nil }
        self.path = path
    }

    /// The path a `sockaddr_un` holds (as `getsockname(2)` fills it), or nil for an unnamed or abstract
    /// socket (empty, or starting with a NUL).
    public init?(_ address: sockaddr_un) {
        let path = withUnsafeBytes(of: address.sun_path) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        self.init(path: path)
    }

    /// Calls `body` with this address as a `sockaddr` pointer and its length, for `bind`/`connect`.
    public func withSockaddr<Result, Failure: Error>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let result: Swift.Result<Result, Failure> = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddrPointer in
                do throws(Failure) {
                    return .success(try body(sockaddrPointer, socklen_t(MemoryLayout<sockaddr_un>.size)))
                } catch {
                    return .failure(error)
                }
            }
        }
        return try result.get()
    }
}
