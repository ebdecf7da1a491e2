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

    init(sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.sleep = sleep
    }

    /// Suspends until `isSatisfied(status)` for a status passed to ``resolve(with:)``, or `timeout` (nil:
    /// never) passes (`timeoutError`), or the task is cancelled (`.cancelled`). The caller checks the
    /// current status first.
    func wait(
        timeout: Duration?, timeoutError: WatchConnectionError, _ isSatisfied: @escaping (ConnectionStatus) -> Bool
    ) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                var waiter = StatusWaiter(isSatisfied: isSatisfied, continuation: continuation)
                if let timeout {
                    let sleep = self.sleep
                    waiter.timer = Task { [weak self] in
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

    private func end(_ id: UUID, _ result: Result<Void, WatchConnectionError>) {
        guard let waiter = waiters.removeValue(forKey: id) else { return }
        waiter.timer?.cancel()
        waiter.continuation.resume(with: result.mapError { $0 as any Error })
    }
}
