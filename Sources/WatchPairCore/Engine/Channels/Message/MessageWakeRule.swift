import WatchPairWire

/// Apple's wake rules for live messages (docs/Lifecycle.md), as pure decisions: a message from the watch
/// may launch the phone app (in the background, which then is reachable); a message from the phone
/// never launches the watch app, and needs it running in the foreground.
enum MessageWakeRule {
    /// Whether a message may open a new link to the peer now: nil, or why not (7007).
    static func mayConnect(role: Role, peer: PeerPresence) -> WCFailure? {
        switch role {
        case .phone:
            peer.running ? nil : WCFailure(.notReachable, "the watch app is not running")
        case .watch:
            peer.listening ? nil : WCFailure(.notReachable, "the phone app is not listening (device off)")
        }
    }

    /// Whether an established link whose peer was launched as `peerLaunch` may carry a message.
    static func mayUse(role: Role, peerLaunch: LaunchMode?) -> WCFailure? {
        guard role == .phone, peerLaunch != .foreground else { return nil }
        return WCFailure(.notReachable, "the watch app is not running in the foreground")
    }
}
