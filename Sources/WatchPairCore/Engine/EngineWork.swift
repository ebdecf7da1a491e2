/// Work the engine starts that outlives the call starting it (a message's link set-up, an answer waiting for
/// the socket), run as children of the engine's `run()`.
///
/// Why not `Task {}`: an unstructured task does not keep the task-executor preference of the task that made
/// it, so in an app (`WCSession`) the engine's work would land on Swift's cooperative pool, which callers
/// blocked in synchronous `WCSession` calls can starve. Children of `run()` keep its executor, and end with it.
///
/// Bound: one entry per piece of work not yet started, each already bounded by the caller (messages in flight).
final class EngineWork: Sendable {
    private let stream: AsyncStream<@Sendable () async -> Void>
    private let continuation: AsyncStream<@Sendable () async -> Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Runs `work` as a child of `run()`; dropped once the engine stopped (what it would write has no link).
    func start(_ work: @escaping @Sendable () async -> Void) {
        continuation.yield(work)
    }

    /// Runs each piece of work as it comes until ``finish()``; the engine's `run()` calls this once.
    func run() async {
        await withDiscardingTaskGroup { group in
            for await work in stream { group.addTask { await work() } }
        }
    }

    /// No more work starts; what runs is cancelled with `run()`'s task.
    func finish() {
        continuation.finish()
    }
}
