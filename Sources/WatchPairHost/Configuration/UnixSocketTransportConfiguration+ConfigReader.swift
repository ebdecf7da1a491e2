import Configuration
import Glibc
import WatchPairTransport
import WatchPairWire

extension UnixSocketTransportConfiguration {
    /// The keys ``init(role:pair:config:)`` reads.
    public static let configKeys = ["paths.link", "paths.peerLink", "paths.peerControl", "paths.peerState", "allowedUIDs"]

    /// The peer uids allowed when `allowedUIDs` is not configured: this process's, and 0 (systemd owns
    /// socket-activated listeners, so a connecting daemon sees uid 0).
    public static var defaultAllowedUIDs: Set<UInt32> { [UInt32(getuid()), 0] }

    /// Reads the peer link of the daemon playing `role` in `pair` from `config`; absent keys keep the
    /// default locations. `<d>` is the daemon name, `<p>` the peer's, `<pair>/` the named pair's directory
    /// (nothing for the default pair).
    ///
    /// The listener is `.bind(path: paths.link)`: the host replaces it at build time with the listening
    /// socket it adopted from systemd or bound at that path itself (``LinkListener``).
    ///
    /// | key | type | default |
    /// |---|---|---|
    /// | `paths.link` | socket path (≤ 107 bytes) | `/run/watchpair/<pair>/<d>.sock` |
    /// | `paths.peerLink` | socket path | `/run/watchpair/<pair>/<p>.sock` |
    /// | `paths.peerControl` | socket path | `/run/watchpair/<pair>/<p>.ctl` |
    /// | `paths.peerState` | directory | nil here; `HostConfiguration` derives it from `paths.state` (``HostConfiguration/Paths/peerState(besides:role:)``): where the peer's installation record is read |
    /// | `allowedUIDs` | list of integers 0…4294967295 (env: comma-separated), allowed besides this process's own uid | `[0]` |
    /// - Throws: ``ConfigurationError`` naming the first path that is empty, holds a NUL byte or is over
    ///   107 bytes, or `allowedUIDs` when it is not a list of integers in range.
    public init(role: Role, pair: PairName? = nil, config: ConfigReader) throws(ConfigurationError) {
        let read = ConfigFieldReader(config: config)
        let defaults = HostConfiguration.Paths(role: role, pair: pair)
        let link = try read.socketPath("paths.link") ?? defaults.link
        let peerLink = try read.socketPath("paths.peerLink") ?? defaults.peerLink
        let peerControl = try read.socketPath("paths.peerControl") ?? defaults.peerControl
        let peerState = try read.string("paths.peerState")
        var allowed = Self.defaultAllowedUIDs
        if let uids = try read.integers("allowedUIDs", in: 0...Int(UInt32.max)) {
            // The daemon's own uid is always allowed: both daemons normally run as the same user.
            allowed = Set(uids.map { UInt32($0) }).union([UInt32(getuid())])
        }
        self.init(listener: .bind(path: link), peerLinkPath: peerLink, peerControlPath: peerControl, allowedUIDs: allowed)
        contentMarkerPath = link + Self.contentMarkerSuffix
        // The app's own record lives in the store's directory (`paths.state`, read by the store's reader):
        // `HostConfiguration` sets it, and the peer's beside it when `paths.peerState` is absent.
        peerStateDirectory = peerState
    }
}
