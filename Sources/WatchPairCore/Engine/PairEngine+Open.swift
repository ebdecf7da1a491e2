import WatchPairWire

extension PairEngine {
    /// The user opens the app (`wcctl open`, `systemctl reload`): a background launch moves to the
    /// foreground. It becomes reachable for the phone (the peer learns it from a `launch` frame on every
    /// established link), no longer exits when idle, and a foreground phone links to a running watch app
    /// for presence. Emits `appOpened`. An app already in the foreground stays as it is.
    ///
    /// - Returns: whether the launch mode changed.
    @discardableResult
    public func open() async -> Bool {
        guard launch == .background else { return false }
        launch = .foreground
        emit(.appOpened, "\(role.daemonName) opened: moved from the background to the foreground")
        // Established links only: their hello went out before the peer's was read, so the frame follows
        // it. A link still handshaking announces the change once established (LinkSession).
        for link in links.values where link.peerHello != nil {
            await announceLaunch(on: link)
        }
        stateSignal.fire()
        contentSignal.fire()
        return true
    }

    /// Tells the peer on `link` the launch mode, unless that link already told it this one. A link that
    /// fails here is closing; its successor's hello carries the launch mode.
    func announceLaunch(on link: Link) async {
        guard link.isOpen, link.announcedLaunch != launch else { return }
        link.announcedLaunch = launch
        try? await link.send(.launch(launch))
    }

    /// The peer says its launch mode changed (a `launch` frame): reachability follows it.
    func peerLaunchChanged(to mode: LaunchMode, on link: Link) {
        guard var hello = link.peerHello, hello.launch != mode else { return }
        hello.launch = mode
        link.peerHello = hello
        logger.debug("the peer's launch mode changed", metadata: ["link": "\(link)", "launch": "\(mode.rawValue)"])
        updateReachability()
        stateSignal.fire()
    }
}
