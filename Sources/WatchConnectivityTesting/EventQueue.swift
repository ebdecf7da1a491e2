import Synchronization

/// Events in arrival order, handed out one at a time to whoever awaits ``next()``: the buffer behind
/// ``SessionRecorder`` (and the project's own test recorders).
///
/// Buffers from creation, so an event that arrives before anyone waits is kept. Waiters are served
/// first-come first-served, one event each. Bound: ``limit`` unread events; an event beyond it is
/// dropped and counted, and the next ``next()`` throws ``EventQueueOverflow`` (once), so a test learns
/// it missed events instead of waiting for one that was dropped.
package final class EventQueue<Element: Sendable>: Sendable {
    private struct State {
        var buffer: [Element] = []
        var head = 0
        var dropped = 0
        var nextID: UInt64 = 0
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Element, any Error>)] = []

        var unread: ArraySlice<Element> { buffer[head...] }

        mutating func take() -> Element? {
            guard head < buffer.count else { return nil }
            let element = buffer[head]
            head += 1
            if head == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                head = 0
            }
            return element
        }
    }

    /// The most unread events kept.
    package let limit: Int
    private let state = Mutex(State())

    package init(limit: Int) {
        self.limit = limit
    }

    /// Hands `element` to the oldest waiter, or keeps it (dropping it when ``limit`` are unread).
    package func append(_ element: Element) {
        let waiter = state.withLock { state -> CheckedContinuation<Element, any Error>? in
            if !state.waiters.isEmpty { return state.waiters.removeFirst().continuation }
            if state.unread.count >= limit {
                state.dropped += 1
            } else {
                state.buffer.append(element)
            }
            return nil
        }
        waiter?.resume(returning: element)
    }

    /// Events kept and not yet handed out, oldest first.
    package var unread: [Element] {
        state.withLock { Array($0.unread) }
    }

    /// What a call of ``next()`` found.
    private enum NextOutcome {
        case element(Element)
        case overflow(Int)
        case cancelled
        case waiting
    }

    /// The oldest unread event, waiting for one if there is none.
    ///
    /// Throws ``EventQueueOverflow`` once after events were dropped, and `CancellationError` when the
    /// calling task is cancelled while waiting (no event is taken then).
    package func next() async throws -> Element {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Element, any Error>) in
                let outcome: NextOutcome = state.withLock { state in
                    if state.dropped > 0 {
                        defer { state.dropped = 0 }
                        return .overflow(state.dropped)
                    }
                    if let element = state.take() { return .element(element) }
                    if Task.isCancelled { return .cancelled }
                    state.waiters.append((id, continuation))
                    return .waiting
                }
                switch outcome {
                case .element(let element): continuation.resume(returning: element)
                case .overflow(let dropped): continuation.resume(throwing: EventQueueOverflow(dropped: dropped, limit: limit))
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .waiting: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Element, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}

/// Events arrived while the recorder already held its limit of unread ones, and were dropped.
public struct EventQueueOverflow: Error, Sendable, Hashable, CustomStringConvertible {
    /// How many were dropped.
    public let dropped: Int
    /// The recorder's limit of unread events.
    public let limit: Int

    /// `dropped` events beyond `limit`.
    public init(dropped: Int, limit: Int) {
        self.dropped = dropped
        self.limit = limit
    }

    /// "dropped N events: more than LIMIT were unread".
    public var description: String { "dropped \(dropped) events: more than \(limit) were unread" }
}
