/// Keeps the peer's view of this side's waiting content current (content outlives its sender: docs/Design.md).
///
/// The engine notes every change of "content waits for the peer" where it happens (accepted, finished,
/// cancelled); the announcer writes each change through the transport from one task, so announcements
/// never overtake each other. Whatever was announced last stays after the app stops: a peer that starts
/// then finds the announcement and launches this app to deliver.
///
/// Owned by one ``PairEngine`` and touched only on its actor.
final class ContentAnnouncer {
    /// What the engine last noted, and what was last written (nil: nothing yet, so the first is written).
    private var noted = false
    private var written: Bool?
    private let signal = AsyncSignal()

    /// The engine's content waiting for the peer is now `pending`; cheap when nothing changed.
    func note(_ pending: Bool) {
        guard pending != noted || written == nil else { return }
        noted = pending
        signal.fire()
    }

    /// Writes each noted change until cancelled.
    func run(_ engine: isolated PairEngine) async {
        while !Task.isCancelled {
            let seen = signal.generation
            if noted != written {
                let pending = noted
                await engine.transport.announceContentPending(pending)
                written = pending
                continue
            }
            await signal.wait(after: seen)
        }
    }
}
