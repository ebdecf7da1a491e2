import Configuration
import WatchPairWire

/// Where the host's control server (``ControlServer``) listens for `wcctl` (mode 0660 in the daemon's group, bound while running).
public struct ControlServerConfiguration: Sendable, Hashable {
    /// The keys ``init(role:pair:config:)`` reads.
    public static let configKeys = ["paths.control"]

    /// This daemon's control socket, e.g. `/run/watchpair/phoned.ctl`.
    public var path: String

    /// A control server at `path`.
    public init(path: String) {
        self.path = path
    }

    /// Reads the control socket of the daemon playing `role` in `pair` from `config`. `<d>` is the daemon
    /// name, `<pair>/` the named pair's directory (nothing for the default pair).
    ///
    /// | key | type | default |
    /// |---|---|---|
    /// | `paths.control` | socket path (≤ 107 bytes) | `/run/watchpair/<pair>/<d>.ctl` |
    /// - Throws: ``ConfigurationError`` naming `paths.control` when it is empty, holds a NUL byte or is over
    ///   107 bytes.
    public init(role: Role, pair: PairName? = nil, config: ConfigReader) throws(ConfigurationError) {
        self.init(
            path: try ConfigFieldReader(config: config).socketPath("paths.control") ?? HostConfiguration.Paths(role: role, pair: pair).control)
    }
}
