import WatchPairCore
import WatchPairHost

/// The child of an activation bound to one watch of several (docs/Watches.md) that ends it when the switch
/// machine closes that watch: at once when the watch is unpaired, or, when the phone switches away from
/// it, once what was queued for it has drained or its link is gone (its device off, its app not
/// installed). Until then the old watch's engine keeps delivering while the session is `.inactive`.
struct WatchSwitchDrain: Sendable {
    let session: WCSession
    let runtime: SessionRuntime
    /// The watch this activation is bound to.
    let watch: String

    /// Returns true once the activation must end (the machine closed the watch); false when cancelled.
    func run() async -> Bool {
        let channels = runtime.channels
        while !Task.isCancelled {
            let watching = [session.watchSignal, session.snapshotSignal, channels.contentSignal, channels.stateSignal]
            let seen = watching.map { ($0, $0.generation) }
            switch session.state.withLock({ $0.watches?.session }) {
            case .activated(let bound?)? where bound == watch:
                break
            case .inactive(let from)? where from == watch:
                if await drainedOrGone() {
                    let actions = session.state.withLock { (try? $0.watches?.event(.drained(watch))) ?? [] }
                    if actions.contains(.close(watch)) { return true }
                    continue
                }
            default:
                // Unpaired while bound or draining: nothing is left to deliver.
                return true
            }
            await Waiting.any(seen)
        }
        return false
    }

    /// Nothing of this watch's is outstanding, or it cannot be delivered now: nothing listens for the
    /// watch and the link is down, or its app is not installed.
    private func drainedOrGone() async -> Bool {
        let status = await runtime.channels.status()
        if status.isDrained { return true }
        let presence = await runtime.transport.peerPresence()
        return status.drainedOrUndeliverable(listening: presence.listening, installed: presence.watchState.installed)
    }
}
