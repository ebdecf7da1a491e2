import Synchronization

/// A value delivered once, to one waiter, by whichever of its producers comes first (a reply, an error,
/// a timeout, a cancellation): the first ``resume(_:)`` wins, later ones are ignored and say so.
///
/// Safe from any thread, so a session's reply handler can end a wait on its own thread, with no hop to
/// the waiter's actor in between. Bound: one waiting continuation.
final class ResultSlot<Value: Sendable>: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<Value, Never>)
        case done(Value?)
    }

    private let state = Mutex(State.empty)

    /// Whether a value was delivered.
    var isDone: Bool {
        state.withLock { if case .done = $0 { true } else { false } }
    }

    /// Installs the continuation; false (and resumed) when a value came first.
    func install(_ continuation: CheckedContinuation<Value, Never>) -> Bool {
        let early: Value? = state.withLock { state in
            guard case .done(let value) = state else {
                state = .waiting(continuation)
                return nil
            }
            state = .done(nil)
            return value
        }
        if let early { continuation.resume(returning: early) }
        return early == nil
    }

    /// Waits for the value, in the caller's isolation (a waiter on the main actor is resumed there, with
    /// no stop on the global executor on the way).
    func value(isolation: isolated (any Actor)? = #isolation) async -> Value {
        await withCheckedContinuation(isolation: isolation) { _ = install($0) }
    }

    /// Delivers `value` unless one was delivered already; whether this call delivered it.
    @discardableResult
    func resume(_ value: Value) -> Bool {
        let (delivered, continuation): (Bool, CheckedContinuation<Value, Never>?) = state.withLock { state in
            switch state {
            case .empty:
                state = .done(value)
                return (true, nil)
            case .waiting(let continuation):
                state = .done(nil)
                return (true, continuation)
            case .done:
                return (false, nil)
            }
        }
        continuation?.resume(returning: value)
        return delivered
    }
}
