import WatchPairWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A received file could not be handed to the app: what was attempted, on which path, and errno.
public struct AppFilesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The errno of the failed call.
    public var errno: Int32
    /// What was attempted.
    public var operation: String
    /// The path concerned.
    public var path: String

    init(_ errno: Int32, _ operation: String, _ path: String) {
        self.errno = errno
        self.operation = operation
        self.path = path
    }

    /// `WCError` 7015 for a full disk, 7001 otherwise.
    public var wcCode: WCErrorCode {
        errno == ENOSPC || errno == EDQUOT ? .insufficientSpace : .genericError
    }

    /// `<operation> <path>: <strerror> (errno N)`.
    public var description: String {
        "\(operation) \(path): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
