/// Thrown by ``withTimeout(_:_:clock:_:)`` when its limit passes before the operation returns.
public struct TimedOut: Error, Sendable, CustomStringConvertible {
    /// What was awaited, as the test names it.
    public let what: String
    /// The limit that passed.
    public let limit: Duration

    /// `what` was not done within `limit`.
    package init(what: String, limit: Duration) {
        self.what = what
        self.limit = limit
    }

    /// "timed out after 60.0 seconds waiting for …".
    public var description: String { "timed out after \(limit) waiting for \(what)" }
}

/// Runs `operation`, failing with ``TimedOut`` when `limit` passes on `clock` first.
///
/// The safety net a test puts around a wait that might never end: the limit bounds a hung test; it is
/// never what a test measures (step a ``ManualClock`` for that), so its default is generous: a busy
/// 2-core machine (CI running builds beside the tests) must never reach it in a passing test. The operation and a sleep on `clock`
/// race as two child tasks: the first to finish decides, and the other is cancelled and then awaited,
/// so an operation must end when cancelled (``AsyncSignal/first(_:)`` does). An error the operation
/// throws is rethrown; cancelling the calling task ends the sleep with `CancellationError`.
public func withTimeout<Value: Sendable, C: Clock<Duration>>(
    _ limit: Duration = .seconds(60),
    _ what: String = "the operation",
    clock: C = ContinuousClock(),
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await clock.sleep(until: clock.now.advanced(by: limit), tolerance: nil)
            throw TimedOut(what: what, limit: limit)
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}
