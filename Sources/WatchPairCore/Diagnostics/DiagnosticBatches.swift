import Synchronization

/// A subscription to the ``DiagnosticsHub`` that hands out every event emitted since the last take at
/// once, for a consumer that writes events in bulk (the host's event sink: one `write(2)` of the history
/// file per batch instead of one per event).
///
/// Under load the consumer's batches grow while it writes the previous one, so its cost per event falls
/// as the rate rises; idle, a batch is one event, as with `subscribe()`.
///
/// Bound: at most `limit` events wait; a newer event pushes out the oldest, counted by the hub as
/// dropped. Cancelling the consuming task ends the subscription: `next()` then hands out what was
/// buffered, then nil, and later events are not kept (as a cancelled `AsyncStream`'s are not).
public final class DiagnosticBatches: AsyncSequence, Sendable {
    public typealias Element = [DiagnosticEvent]

    private struct State {
        var buffer: [DiagnosticEvent] = []
        var waiter: CheckedContinuation<Void, Never>?
        var finished = false
    }

    private let state = Mutex(State())
    /// Most events waiting at once.
    let limit: Int

    init(limit: Int) {
        precondition(limit > 0, "a subscription buffers at least one event")
        self.limit = limit
    }

    /// Buffers `events` and wakes a waiting consumer once: how many of the oldest events were dropped to
    /// stay within the bound, or nil when the consumer has stopped (nothing is kept, and the hub forgets
    /// this subscription).
    func append<Events: Collection<DiagnosticEvent>>(contentsOf events: Events) -> Int? {
        let (waiter, dropped) = state.withLock { state -> (CheckedContinuation<Void, Never>?, Int?) in
            guard !state.finished else { return (nil, nil) }
            state.buffer.append(contentsOf: events)
            let dropped = Swift.max(0, state.buffer.count - limit)
            if dropped > 0 { state.buffer.removeFirst(dropped) }
            defer { state.waiter = nil }
            return (state.waiter, dropped)
        }
        waiter?.resume()
        return dropped
    }

    /// Waits for at least one event and takes every buffered one, oldest first; nil once the consuming
    /// task was cancelled and nothing is left.
    public func next() async -> [DiagnosticEvent]? {
        while true {
            let (taken, finished) = state.withLock { state -> ([DiagnosticEvent], Bool) in
                if Task.isCancelled { state.finished = true }
                defer { state.buffer = [] }
                return (state.buffer, state.finished)
            }
            if !taken.isEmpty { return taken }
            if finished { return nil }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = state.withLock { state -> Bool in
                        guard state.buffer.isEmpty, !state.finished else { return true }
                        state.waiter = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    state.finished = true
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume()
            }
        }
    }

    /// Iterates the batches (see ``next()``).
    public struct AsyncIterator: AsyncIteratorProtocol {
        let batches: DiagnosticBatches

        /// The next batch; nil at the end.
        public mutating func next() async -> [DiagnosticEvent]? {
            await batches.next()
        }
    }

    /// An iterator over the batches.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(batches: self)
    }
}
