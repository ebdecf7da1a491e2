import Logging
import Synchronization
import WatchPairCore

/// Runs `PairEngine.run()` in its own task on the engine executor, so the session can stop waiting for
/// it after a grace period.
///
/// Why not a child task: `run()` can stay suspended after cancellation when it is cancelled while a
/// connection attempt is in flight (the attempt waits for a handshake on a link that `run()` no longer
/// serves). A child task would then hang the session's shutdown forever; this runner bounds the wait
/// and logs a warning instead (the engine's task is then abandoned, already cancelled).
final class EngineRunner: Sendable {
    /// How long `stop` waits for `run()` to return after cancelling it.
    static let stopGracePeriod: Duration = .seconds(2)

    /// How `run()` ended, shared with its task.
    private final class Outcome: Sendable {
        let result = Mutex<Result<Void, any Error>?>(nil)
        let ended = AsyncSignal()
    }

    private let task: Task<Void, Never>
    private let shared = Outcome()
    private var ended: AsyncSignal { shared.ended }

    private var currentResult: Result<Void, any Error>? { shared.result.withLock { $0 } }

    init(_ engine: PairEngine) {
        let shared = self.shared
        task = EngineExecutor.shared.spawn {
            let result: Result<Void, any Error>
            do {
                try await engine.run()
                result = .success(())
            } catch {
                result = .failure(error)
            }
            shared.result.withLock { $0 = result }
            shared.ended.fire()
        }
    }

    /// Waits until `run()` returns; its error, or nil when it returned normally or the caller was cancelled.
    func failure() async -> (any Error)? {
        while !Task.isCancelled {
            let seen = ended.generation
            switch currentResult {
            case .failure(let error): return error
            case .success: return nil
            case nil: await ended.wait(after: seen)
            }
        }
        return nil
    }

    /// Cancels `run()` and waits for it to return, at most `stopGracePeriod`.
    func stop(logger: Logger) async {
        task.cancel()
        // The caller is usually cancelled itself: wait in a task that is not, so the grace period holds.
        let stopped = await EngineExecutor.shared.spawn { await self.waitForEnd() }.value
        if !stopped {
            logger.info("the engine did not stop within \(Self.stopGracePeriod) of being cancelled; abandoning it")
        }
    }

    /// True once `run()` has returned, false after `stopGracePeriod`.
    private func waitForEnd() async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                try? await Task.sleep(for: Self.stopGracePeriod)
                return false
            }
            group.addTask {
                while !Task.isCancelled {
                    let seen = self.ended.generation
                    if self.currentResult != nil { return true }
                    await self.ended.wait(after: seen)
                }
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
