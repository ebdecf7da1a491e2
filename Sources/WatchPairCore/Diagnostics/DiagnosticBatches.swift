import Synchronization

/// A subscription to the ``DiagnosticsHub`` that its consumer empties in bulk: ``take()`` hands out every
/// event emitted since the last take at once, for a consumer that writes events in bulk (the host's event
/// sink: one `write(2)` of the history file per batch instead of one per event).
///
/// The consumer learns that there is something to take from the hook it gives ``onArrival(_:)``, which
/// runs on the emitting thread for the first event after a take, not for every event: a consumer that
/// takes at the end of its event loop's tick is called once per tick however many events the tick emitted.
///
/// Bound: at most `limit` events wait; a newer event pushes out the oldest, counted by the hub as
/// dropped. ``finish()`` ends the subscription: later events are not kept and the hub forgets it, while
/// what was buffered is still handed out by ``take()``.
public final class DiagnosticBatches: Sendable {
    /// What ``append(_:)`` did with an event.
    enum Appended {
        /// Buffered.
        case kept
        /// Buffered, and the oldest event dropped to stay within the bound.
        case droppedOldest
        /// The consumer has stopped: not kept, and the hub forgets this subscription.
        case finished
    }

    private struct State {
        var buffer: [DiagnosticEvent] = []
        var arrival: (@Sendable () -> Void)?
        /// Whether `arrival` ran for what is buffered (cleared by a take).
        var announced = false
        var finished = false

        /// The hook to run now: the first time something waits since the last take.
        mutating func announce() -> (@Sendable () -> Void)? {
            guard let arrival, !announced, !buffer.isEmpty else { return nil }
            announced = true
            return arrival
        }
    }

    private let state = Mutex(State())
    /// Most events waiting at once.
    let limit: Int

    init(limit: Int) {
        precondition(limit > 0, "a subscription buffers at least one event")
        self.limit = limit
    }

    /// Buffers `event` and, when it is the first since the last take, runs the arrival hook.
    func append(_ event: DiagnosticEvent) -> Appended {
        let (arrival, appended) = state.withLock { state -> ((@Sendable () -> Void)?, Appended) in
            guard !state.finished else { return (nil, .finished) }
            var appended = Appended.kept
            if state.buffer.count >= limit {
                state.buffer.removeFirst()
                appended = .droppedOldest
            }
            state.buffer.append(event)
            return (state.announce(), appended)
        }
        arrival?()
        return appended
    }

    /// Runs `hook` (on the emitting thread, outside any lock) whenever events start waiting again after
    /// a ``take()``; at once when some already wait.
    public func onArrival(_ hook: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> (@Sendable () -> Void)? in
            state.arrival = hook
            return state.announce()
        }
        now?()
    }

    /// Every buffered event, oldest first; empty when none wait.
    public func take() -> [DiagnosticEvent] {
        state.withLock { state in
            state.announced = false
            defer { state.buffer = [] }
            return state.buffer
        }
    }

    /// Ends the subscription: later events are not kept (``take()`` still hands out the buffered ones)
    /// and the hook no longer runs.
    public func finish() {
        state.withLock { state in
            state.finished = true
            state.arrival = nil
        }
    }
}
