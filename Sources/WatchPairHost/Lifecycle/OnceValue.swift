import Synchronization

/// A value set once and awaited by one or more tasks; later `complete` calls are ignored.
///
/// Used where several paths race to finish one thing (an answer, a timeout, a disconnect) and exactly
/// one must win.
public final class OnceValue<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [CheckedContinuation<Value, Never>] = []
    }

    private let state = Mutex(State())

    /// A value not set yet.
    public init() {}

    /// Sets the value unless one is set; returns whether this call set it.
    @discardableResult
    public func complete(_ value: Value) -> Bool {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>]? in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: value) }
        return true
    }

    /// Waits for the value. Not cancellable by itself: callers make sure some path completes it.
    public var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Value? in
                    if let value = state.value { return value }
                    state.waiters.append(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }

    /// Runs `operation` in its own task and returns its result, or nil as soon as the calling task is
    /// cancelled, leaving the operation to finish on its own.
    ///
    /// For work that ignores cancellation but must not hold up a shutdown (a live message waiting for
    /// its reply): the result is not durable, so abandoning it is safe, and the engine completes it
    /// when its links close.
    public static func abandoningOnCancel<T: Sendable>(_ operation: @escaping @Sendable () async -> T) async -> T? {
        let result = OnceValue<T?>()
        // Deliberately unstructured: a child task would make the caller wait for it.
        Task { result.complete(await operation()) }
        return await withTaskCancellationHandler {
            await result.value
        } onCancel: {
            result.complete(nil)
        }
    }
}
