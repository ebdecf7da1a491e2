import Foundation
import WatchPairWire

extension HostConfiguration.Paths {
    /// The default locations for `role` (docs/Configuration.md), under `runDirectory` and `stateRoot`.
    public init(role: Role, runDirectory: String = "/run/watchpair", stateRoot: String = "/var/lib/watchpair") {
        let name = role.daemonName
        let peer = role.peer.daemonName
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
