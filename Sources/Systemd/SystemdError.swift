#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failed libsystemd or system call, with the errno it reported and what was attempted.
///
/// libsystemd returns `-errno` on failure; ``errno`` holds the positive value.
public struct SystemdError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was attempted, e.g. `"sd_listen_fds_with_names"`.
    public var operation: String
    /// The positive errno value reported by the call.
    public var errno: Int32

    /// Creates an error for `operation` that failed with the positive errno value `errno`.
    public init(operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    /// Creates an error from a negative libsystemd return value (`-errno`).
    init(operation: String, returnValue: Int32) {
        self.init(operation: operation, errno: -returnValue)
    }

    /// `"<operation> failed: <strerror> (errno <n>)"`.
    public var description: String {
        "\(self.operation) failed: \(String(cString: strerror(self.errno))) (errno \(self.errno))"
    }
}
