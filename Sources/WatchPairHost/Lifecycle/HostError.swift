/// Why a daemon could not start or had to stop: a runtime failure, not a `WCError`.
///
/// `main` prints `<daemon>: <description>` on stderr and exits with ``exitStatus``.
public struct HostError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed.
    public enum Kind: Sendable, Hashable {
        /// A configuration value is unusable (exit 78, `EX_CONFIG`).
        case configuration
        /// The durable store could not be opened (missing permissions, corrupt file, newer schema…).
        case store
        /// A listening socket could not be adopted or bound (link or control socket).
        case listen
        /// systemd passed something unusable (malformed `LISTEN_FDS`…).
        case systemd
    }

    /// What failed.
    public var kind: Kind
    /// What was attempted and what the system said (errno included for syscalls).
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// 78 (`EX_CONFIG`) for configuration errors, 1 for every other failure.
    public var exitStatus: Int32 { kind == .configuration ? ConfigurationError.exitStatus : 1 }

    /// The message.
    public var description: String { message }
}
