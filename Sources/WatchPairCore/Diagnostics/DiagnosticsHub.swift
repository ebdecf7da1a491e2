import Synchronization

/// Fans diagnostic events out to any number of subscribers (journald writer, `wcctl events --follow`, tests).
///
/// Bound: each subscriber buffers at most `bufferLimit` events; a subscriber that falls further behind
/// loses its oldest events and is told how many in `droppedEvents`. Diagnostics never block the engine.
public final class DiagnosticsHub: Sendable {
    /// Per-subscriber buffer size.
    public let bufferLimit: Int

    private struct State {
        var subscribers: [UInt64: AsyncStream<DiagnosticEvent>.Continuation] = [:]
        var batchSubscribers: [UInt64: DiagnosticBatches] = [:]
        var nextId: UInt64 = 0
        var dropped: Int = 0
    }

    private let state = Mutex(State())

    public init(bufferLimit: Int = 8192) {
        self.bufferLimit = bufferLimit
    }

    /// A new subscription; it sees events emitted from now on and ends when the consumer stops iterating.
    public func subscribe() -> AsyncStream<DiagnosticEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: DiagnosticEvent.self,
            bufferingPolicy: .bufferingNewest(bufferLimit)
        )
        let id = state.withLock { state -> UInt64 in
            state.nextId += 1
            state.subscribers[state.nextId] = continuation
            return state.nextId
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// A new subscription handing out events in batches (everything since the last take); it sees
    /// events emitted from now on and ends when its consuming task is cancelled. Same bound as
    /// `subscribe()`.
    public func subscribeInBatches() -> DiagnosticBatches {
        let batches = DiagnosticBatches(limit: bufferLimit)
        state.withLock { state in
            state.nextId += 1
            state.batchSubscribers[state.nextId] = batches
        }
        return batches
    }

    /// Delivers `event` to every subscriber.
    public func emit(_ event: DiagnosticEvent) {
        emit(contentsOf: CollectionOfOne(event))
    }

    /// Delivers `events`, in order, to every subscriber; a batch subscriber gets them as one append (one
    /// wake-up), so a burst (keyed sync's 100 keys of one snapshot) is written as one batch, not one
    /// turn of the consumer per event.
    public func emit<Events: Collection<DiagnosticEvent>>(contentsOf events: Events) {
        guard !events.isEmpty else { return }
        let (subscribers, batchSubscribers) = state.withLock { (Array($0.subscribers.values), $0.batchSubscribers) }
        var dropped = 0
        for subscriber in subscribers {
            for event in events {
                if case .dropped = subscriber.yield(event) { dropped += 1 }
            }
        }
        var finished: [UInt64] = []
        for (id, batches) in batchSubscribers {
            if let lost = batches.append(contentsOf: events) { dropped += lost } else { finished.append(id) }
        }
        if dropped > 0 || !finished.isEmpty {
            state.withLock { state in
                state.dropped += dropped
                for id in finished { state.batchSubscribers.removeValue(forKey: id) }
            }
        }
    }

    /// Events lost by subscribers that fell more than `bufferLimit` behind.
    public var droppedEvents: Int { state.withLock { $0.dropped } }
}
