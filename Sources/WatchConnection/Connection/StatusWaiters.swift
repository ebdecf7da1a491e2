import Foundation

/// The callers of `waitForActivation` / `waitForConnection` suspended until the connection status satisfies
/// their condition, each with its own timeout on the connection's clock.
///
/// Every waiter is resumed exactly once: by ``resolve(with:)`` when its condition holds, by its timeout, or
/// by cancellation of its task. Bound: one entry per suspended caller.
@MainActor
final class StatusWaiters {
    private var waiters: [UUID: StatusWaiter] = [:]
    private let sleep: @Sendable (Duration) async throws -> Void
    private let tasks: TaskSet

    init(sleep: @escaping @Sendable (Duration) async throws -> Void, tasks: TaskSet) {
        self.sleep = sleep
        self.tasks = tasks
    }

    /// Suspends until `isSatisfied(status)` for a status passed to ``resolve(with:)``, or `timeout` (nil:
    /// never) passes (`timeoutError`), or the task is cancelled or the connection closed (`.cancelled`).
    /// The caller checks the current status first.
    func wait(
        timeout: Duration?, timeoutError: WatchConnectionError, _ isSatisfied: @escaping (ConnectionStatus) -> Bool
    ) async throws {
        // A closed connection's callers are not left waiting for a status that can no longer change.
        guard !tasks.isClosed else { throw WatchConnectionError.cancelled }
        let id = UUID.random()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                var waiter = StatusWaiter(isSatisfied: isSatisfied, continuation: continuation)
                if let timeout {
                    let sleep = self.sleep
                    waiter.timer = tasks.start { [weak self] in
                        do { try await sleep(timeout) } catch { return }
                        self?.end(id, .failure(timeoutError))
                    }
                }
                waiters[id] = waiter
            }
        } onCancel: {
            Task { @MainActor [weak self] in self?.end(id, .failure(.cancelled)) }
        }
    }

    /// Resumes the waiters whose condition `status` satisfies.
    func resolve(with status: ConnectionStatus) {
        for (id, waiter) in waiters where waiter.isSatisfied(status) {
            end(id, .success(()))
        }
    }

    /// Resumes every waiter with `.cancelled` (the connection is closing).
    func cancelAll() {
        for id in Array(waiters.keys) { end(id, .failure(.cancelled)) }
    }

    private func end(_ id: UUID, _ result: Result<Void, WatchConnectionError>) {
        guard let waiter = waiters.removeValue(forKey: id) else { return }
        waiter.timer?.cancel()
        waiter.continuation.resume(with: result.mapError { $0 as any Error })
    }
}
