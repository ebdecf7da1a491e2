import Foundation

extension WatchConnection {
    /// Returns once the session is activated.
    /// - Throws: `.notActivated` when `timeout` passes first; `.cancelled` when the task is cancelled.
    public func waitForActivation(timeout: Duration = .seconds(10)) async throws {
        try await waitForStatus(timeout: timeout, timeoutError: .notActivated) { $0.isActivated }
    }

    /// Returns once live messages can be sent (activated and reachable); nil `timeout` waits indefinitely.
    /// - Throws: `.timeout` when `timeout` passes first; `.cancelled` when the task is cancelled.
    public func waitForConnection(timeout: Duration? = nil) async throws {
        try await waitForStatus(timeout: timeout, timeoutError: .timeout) { $0.canSendMessages }
    }

    /// Waits for the connection, sends as a live message, and starts over if the link is lost
    /// mid-request (a retryable failure), up to `maxAttempts` times.
    ///
    /// - Throws: `.timeout` when a wait for the connection passes `connectionTimeout`; the last failure
    ///   otherwise.
    public func sendWhenReady<R: WatchRequest>(
        _ request: R,
        strategy: DeliveryStrategy = .messageWithUserInfoFallback,
        maxAttempts: Int = 3,
        connectionTimeout: Duration = .seconds(30)
    ) async throws -> R.Response {
        var attempt = 0
        while true {
            attempt += 1
            try await waitForConnection(timeout: connectionTimeout)
            do {
                return try await send(request, strategy: strategy, delivery: .immediate)
            } catch let error as WatchConnectionError where attempt < maxAttempts && RetryDecision.isRetryable(error) {
                continue
            }
        }
    }

    /// Suspends until `isSatisfied(currentConnectionStatus)` or the timeout (``StatusWaiters``).
    private func waitForStatus(
        timeout: Duration?, timeoutError: WatchConnectionError, _ isSatisfied: @escaping (ConnectionStatus) -> Bool
    ) async throws {
        refreshStatus()
        if isSatisfied(currentConnectionStatus) { return }
        try await statusWaiters.wait(timeout: timeout, timeoutError: timeoutError, isSatisfied)
    }
}
