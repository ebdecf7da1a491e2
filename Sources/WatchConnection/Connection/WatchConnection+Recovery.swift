import Foundation

extension WatchConnection {
    /// Switches to `.active`: queued requests flush now (if the peer is reachable) and whenever it
    /// becomes reachable again.
    public func connect() async {
        connectionMode = .active
        refreshStatus()
        queueRunner.flush()
    }

    /// Switches to `.passive` and ends every pending request (in flight or queued) with `.cancelled`.
    public func disconnect() {
        connectionMode = .passive
        queueRunner.cancelAll()
        for id in Array(pending.keys) { finish(id, .failure(.cancelled)) }
    }

    /// Re-activates the session, probes the peer with a ping message, and flushes the queue.
    ///
    /// Success (the probe was answered within `recoveryTimeout`) makes the health `.healthy` and emits
    /// `recoverySucceeded`; failure emits `recoveryFailed` and suggests `repairDevices`.
    public func attemptRecovery() async {
        emit(.recoveryAttempted)
        session.activate(reportingTo: sessionEventReceiver)
        do {
            try await waitForConnection(timeout: configuration.recoveryTimeout)
            try await session.probe(timeout: configuration.recoveryTimeout, sleep: time.sleep)
        } catch {
            let failure = error as? WatchConnectionError ?? .sessionError(code: 7001, description: String(describing: error))
            emit(.recoveryFailed(error: failure))
            suggest(.recoveryFailed)
            return
        }
        record(.succeeded)
        emit(.recoverySucceeded)
        queueRunner.flush()
    }
}
