import ServiceLifecycle
import WatchPairCore

/// Runs the engine (the peer link) until the host stops.
///
/// The engine runs in a task of its own (preferring `executor` when given), so a stop waits for it at
/// most ``stopGracePeriod``: `PairEngine.run()` can stay suspended after cancellation when it is cancelled
/// while a connection attempt is in flight, and the host's shutdown must not hang on it (the task is
/// then abandoned, already cancelled, and a line is logged by the caller's group).
struct EngineService: Service {
    /// How long a stop waits for `run()` to return after cancelling it.
    static let stopGracePeriod: Duration = .seconds(2)

    let engine: PairEngine
    /// The executor the engine's task prefers; nil: the default.
    let executor: (any TaskExecutor)?

    /// Serves until graceful shutdown or cancellation; throws only when the link listener fails.
    func run() async throws {
        let engine = self.engine
        let outcome = OnceValue<Result<Void, any Error>>()
        // Deliberately unstructured: a child task would make the stop wait for a hung run() forever.
        let task = Task(executorPreference: executor) {
            do {
                try await engine.run()
                outcome.complete(.success(()))
            } catch {
                outcome.complete(.failure(error))
            }
        }
        let stopped: @Sendable () -> Void = { [executor] in
            task.cancel()
            Task(executorPreference: executor) {
                try? await Task.sleep(for: Self.stopGracePeriod)
                outcome.complete(.success(()))
            }
        }
        let result = await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await outcome.value
            } onCancel: {
                stopped()
            }
        } onGracefulShutdown: {
            stopped()
        }
        if case .failure(let error) = result, !(error is CancellationError), !task.isCancelled {
            throw error
        }
    }
}
