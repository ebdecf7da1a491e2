import Configuration
import WatchPairWire

extension HostConfiguration.Paths {
    /// The keys ``init(role:config:)`` reads: the link listener's and the transport's sockets, the control
    /// server's socket, the store's directory.
    public static let configKeys = ["paths.link", "paths.peerLink", "paths.control", "paths.peerControl", "paths.state"]

    /// DESIGN.md's locations for `role`, under `runDirectory` and `stateRoot`.
    public init(role: Role, runDirectory: String = "/run/watchpair", stateRoot: String = "/var/lib/watchpair") {
        let name = role.daemonName
        let peer = role.peer.daemonName
        self.init(
            link: "\(runDirectory)/\(name).sock", peerLink: "\(runDirectory)/\(peer).sock",
            control: "\(runDirectory)/\(name).ctl", peerControl: "\(runDirectory)/\(peer).ctl",
            state: "\(stateRoot)/\(name)")
    }

    /// Reads the locations of the daemon playing `role` from `config`; absent keys keep
    /// ``init(role:runDirectory:stateRoot:)``'s. `<d>` is the daemon name, `<p>` the peer's.
    ///
    /// | key | type | default |
    /// |---|---|---|
    /// | `paths.link` | socket path (≤ 107 bytes) | `/run/watchpair/<d>.sock` |
    /// | `paths.peerLink` | socket path | `/run/watchpair/<p>.sock` |
    /// | `paths.control` | socket path | `/run/watchpair/<d>.ctl` |
    /// | `paths.peerControl` | socket path | `/run/watchpair/<p>.ctl` |
    /// | `paths.state` | directory path | `/var/lib/watchpair/<d>` |
    /// - Throws: ``ConfigurationError`` naming the first path that is empty, holds a NUL byte, or (for a
    ///   socket) is over 107 bytes.
    public init(role: Role, config: ConfigReader) throws(ConfigurationError) {
        self.init(role: role)
        let read = ConfigFieldReader(config: config)
        link = try read.socketPath("paths.link") ?? link
        peerLink = try read.socketPath("paths.peerLink") ?? peerLink
        control = try read.socketPath("paths.control") ?? control
        peerControl = try read.socketPath("paths.peerControl") ?? peerControl
        state = try read.string("paths.state") ?? state
    }
}
