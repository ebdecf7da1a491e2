import WatchPairCore
import WatchPairWire

extension InMemoryNetwork {
    /// Models the moment after `kill -9` of `role`'s app: while `tornDown` is true, the peer's presence
    /// probe still sees the app running (a killed process's control socket accepts connects until the
    /// kernel closes it), but ``answers(_:)`` is false. Set it before the app stops serving to reproduce
    /// a peer that sees the link close first; a change is reported to the peer's `peerChanges()`.
    public func setTornDown(_ role: Role, _ tornDown: Bool) {
        update(role, \.tornDown, to: tornDown)
    }

    /// Whether `role`'s app answers when its peer asks (``Transport/peerAnswers()``): it serves and is not
    /// being torn down. Reported as an ``NetworkEvent/asked(from:to:answered:)`` event.
    func answers(_ role: Role) -> Bool {
        state.withLock { state in
            let endpoint = state.endpoints[role]!
            let answered = endpoint.server != nil && !endpoint.tornDown
            state.emit(.asked(from: role.peer, to: role, answered: answered))
            return answered
        }
    }
}
