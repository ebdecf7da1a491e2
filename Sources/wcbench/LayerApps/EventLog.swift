import WatchConnection

/// The driver's view of its connection's diagnostic events: when the flush started, and waits for a
/// condition on the connection's state (re-checked after each event).
@MainActor
final class EventLog {
    /// When the first `queueFlushed` event since the last ``awaitNextFlush()`` arrived.
    private(set) var flushStartedAt: ContinuousClock.Instant?
    private var waiters: [(condition: () -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

    init(_ connection: WatchConnection) {
        let events = connection.diagnosticEvents
        Task { [weak self] in
            for await event in events {
                guard let self else { return }
                if case .queueFlushed = event, flushStartedAt == nil { flushStartedAt = ContinuousClock.now }
                resolve()
            }
        }
    }

    /// Forgets the last flush's start: the next `queueFlushed` is the next flush's.
    func awaitNextFlush() {
        flushStartedAt = nil
    }

    /// Returns once `condition` holds. Bounded by wcbench, which kills the app at its phase deadline.
    func waitUntil(_ condition: @escaping () -> Bool) async {
        if condition() { return }
        await withCheckedContinuation { waiters.append((condition, $0)) }
    }

    private func resolve() {
        let ready = waiters.filter { $0.condition() }
        waiters.removeAll { $0.condition() }
        for waiter in ready { waiter.continuation.resume() }
    }
}
