import Synchronization

/// A first-come first-served async lock: one write at a time per connection.
///
/// Bound: one waiter per concurrently writing task.
final class WriteGate: Sendable {
    private struct State {
        var held = false
        var nextID: UInt64 = 0
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    private let state = Mutex(State())

    /// Waits for the gate; throws `CancellationError` (without holding it) if cancelled while waiting.
    func acquire() async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case acquired, cancelled, waiting }
                let outcome: Outcome = state.withLock { state in
                    if Task.isCancelled { return .cancelled }
                    if !state.held {
                        state.held = true
                        return .acquired
                    }
                    state.waiters.append((id, continuation))
                    return .waiting
                }
                switch outcome {
                case .acquired: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .waiting: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Takes the gate if nobody holds it (nobody can be waiting then); false otherwise, without waiting.
    func tryAcquire() -> Bool {
        state.withLock { state in
            guard !state.held else { return false }
            state.held = true
            return true
        }
    }

    /// Hands the gate to the next waiter, or opens it.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard !state.waiters.isEmpty else {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }
}
