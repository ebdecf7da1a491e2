import Foundation
import WatchPairWire

extension HostConfiguration.Paths {
    /// Where sockets live when nothing says otherwise.
    public static let defaultRunDirectory = "/run/watchpair"
    /// Where state directories live when nothing says otherwise.
    public static let defaultStateRoot = "/var/lib/watchpair"

    /// The default locations for `role` (docs/Configuration.md), under `runDirectory` and `stateRoot`,
    /// or under their `pair` subdirectories for a named pair (`/run/watchpair/ci-3/phoned.sock`,
    /// `/var/lib/watchpair/ci-3/phoned`), as the template units create them.
    public init(
        role: Role, pair: PairName? = nil, runDirectory: String = defaultRunDirectory, stateRoot: String = defaultStateRoot
    ) {
        let name = role.daemonName
        let peer = role.peer.daemonName
        let runDirectory = PairName.directory(runDirectory, pair: pair)
        let stateRoot = PairName.directory(stateRoot, pair: pair)
        self.init(
            link: "\(runDirectory)/\(name).sock", peerLink: "\(runDirectory)/\(peer).sock",
            control: "\(runDirectory)/\(name).ctl", peerControl: "\(runDirectory)/\(peer).ctl",
            state: "\(stateRoot)/\(name)", peerState: "\(stateRoot)/\(peer)")
    }

    /// The peer's state directory when `paths.peerState` is not configured: beside `state`, named as
    /// `state`'s last component with this daemon's name replaced by the peer's (`/var/lib/watchpair/phoned`
    /// → `…/watchd`, `$dir/phoned-state` → `$dir/watchd-state`); nil when that name does not hold the
    /// daemon's name.
    public static func peerState(besides state: String, role: Role) -> String? {
        let slash = state.lastIndex(of: "/").map { state.index(after: $0) } ?? state.startIndex
        let last = state[slash...]
        guard last.contains(role.daemonName) else { return nil }
        return String(state[..<slash]) + last.replacingOccurrences(of: role.daemonName, with: role.peer.daemonName)
    }
}
