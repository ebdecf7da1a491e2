import WatchPairTesting

extension WCSessionPair {
    /// How a pair's in-memory ``WCSessionPair/clock`` moves.
    public enum ClockMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Only when the test says: `clock.advance(by:)`, `advance(to:)`, after `waitForSleepers` to know a
        /// timer started. For tests that need to see a state between two instants.
        case manual
        /// By itself, while the test awaits through the kit (a recorder's `next`/`first`, a
        /// `sendMessageAwaitingReply`, ``WCSessionPair/wait(_:within:_:)``): whenever the pair is idle, the
        /// clock jumps to the earliest deadline a task sleeps until, so a reply timeout is one awaited line.
        ///
        /// Idle means: three passes in a row, each letting the engine's thread and both delegate queues run
        /// what they had queued, saw no sleeper start or end and no byte written or read, while every
        /// written byte had been read and every link's reader was back waiting for the next frame (so a
        /// frame being handled, store writes included, keeps time still). A reader stuck behind a write a
        /// fault holds on the clock does not: only time frees it. Time moves only while a kit wait runs,
        /// so the test's code between two waits happens at one instant (unless another of its tasks is
        /// inside a wait meanwhile). The engines' keep-alives are off. Explicit stepping still works.
        case automatic

        /// `manual` or `automatic`, for test names.
        public var description: String { rawValue }
    }

    /// Returns what `operation` returns, bounded by `limit`, driving the clock meanwhile if it drives
    /// itself: for awaiting the app's own async code (`try await pair.wait { try await sync.refresh() }`).
    ///
    /// - Parameters:
    ///   - what: Names the wait in the `TimedOut` error.
    ///   - limit: On the real clock: a safety net.
    /// - Throws: `TimedOut` after `limit`, or what `operation` throws.
    public func wait<Value: Sendable>(
        _ what: String = "the operation", within limit: Duration = SessionRecorder.defaultLimit,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await waits.wait(what, within: limit, operation)
    }
}
