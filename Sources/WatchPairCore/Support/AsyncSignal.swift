import Synchronization

/// A level-triggered wake-up for loops that wait for "something changed" (new content, a peer socket,
/// a closed link). Waiters pass the generation they last saw, so a `fire()` between checking a
/// condition and waiting is never lost. Bound: one continuation per waiting task.
public final class AsyncSignal: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiterId: UInt64 = 0
    }

    private let state = Mutex(State())

    /// A signal that has not fired yet.
    public init() {}

    /// The current generation; pass it to `wait(after:)`.
    public var generation: UInt64 { state.withLock { $0.generation } }

    /// Wakes every waiter.
    public func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.generation &+= 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the generation is past `seen`, or when the task is cancelled.
    public func wait(after seen: UInt64) async {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiterId &+= 1
            return state.nextWaiterId
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.generation != seen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }
}

/// A value set once and awaited by any number of tasks; later `complete` calls are ignored.
/// This is what makes "exactly one reply or error" hold: every path that finishes a message
/// (reply, error frame, timeout, link loss) races on one `complete`, and only the first wins.
final class OneShot<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [UInt64: CheckedContinuation<Value?, Never>] = [:]
        var nextWaiterId: UInt64 = 0
    }

    private let state = Mutex(State())

    init() {}

    /// Sets the value if none is set yet; returns whether this call set it.
    @discardableResult
    func complete(_ value: Value) -> Bool {
        let waiters = state.withLock { state -> [CheckedContinuation<Value?, Never>]? in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: value) }
        return true
    }

    /// The value, if set.
    var current: Value? { state.withLock { $0.value } }

    /// Waits for the value; nil when the waiting task is cancelled first (so no shutdown waits on it).
    func wait() async -> Value? {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiterId &+= 1
            return state.nextWaiterId
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> (Bool, Value?) in
                    if let value = state.value { return (true, value) }
                    if Task.isCancelled { return (true, nil) }
                    state.waiters[id] = continuation
                    return (false, nil)
                }
                if ready.0 { continuation.resume(returning: ready.1) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: nil)
        }
    }
}
