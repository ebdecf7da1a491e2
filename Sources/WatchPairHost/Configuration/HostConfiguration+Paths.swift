import WatchPairWire

extension HostConfiguration.Paths {
    /// DESIGN.md's locations for `role`, under `runDirectory` and `stateRoot`.
    public init(role: Role, runDirectory: String = "/run/watchpair", stateRoot: String = "/var/lib/watchpair") {
        let name = role.daemonName
        let peer = role.peer.daemonName
        self.init(
            link: "\(runDirectory)/\(name).sock", peerLink: "\(runDirectory)/\(peer).sock",
            control: "\(runDirectory)/\(name).ctl", peerControl: "\(runDirectory)/\(peer).ctl",
            state: "\(stateRoot)/\(name)")
    }
}
