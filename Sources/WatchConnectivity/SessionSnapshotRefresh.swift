import WatchPairCore
import WatchPairHost

/// Keeps the session's `SessionSnapshot` current and makes the delegate callbacks its changes produce
/// (`SessionSnapshot.callbacks(to:role:)`), on the delegate queue.
///
/// Woken by the engine's state signal (link up or down, reachability) and by changes of the
/// counterpart's endpoints; never polls.
struct SessionSnapshotRefresh: Sendable {
    let session: WCSession
    let runtime: SessionRuntime

    /// Refreshes until cancelled.
    func run() async {
        let wake = AsyncSignal()
        let channels = runtime.channels
        await withDiscardingTaskGroup { group in
            group.addTask {
                var seen = channels.stateSignal.generation
                while !Task.isCancelled {
                    await channels.stateSignal.wait(after: seen)
                    seen = channels.stateSignal.generation
                    wake.fire()
                }
            }
            group.addTask {
                for await _ in runtime.transport.peerChanges() { wake.fire() }
            }
            while !Task.isCancelled {
                let seen = wake.generation
                await refresh()
                await wake.wait(after: seen)
            }
            group.cancelAll()
        }
    }

    /// Reads the engine's status and the counterpart's presence, then stores the snapshot and reports
    /// its changes, unless the session is no longer activated by then.
    private func refresh() async {
        let status = await runtime.channels.status()
        let presence = await runtime.transport.peerPresence()
        let new = SessionSnapshot(status: status, presence: presence)
        runtime.logger.debug("state refreshed", metadata: [
            "presence": "\(presence)", "peerInstalled": "\(status.peerInstalled)", "reachable": "\(status.reachable)", "link": "\(status.link)",
        ])
        let role = runtime.configuration.role
        let callbacks = session.state.withLock { state -> [SessionSnapshot.Callback] in
            guard state.activationState == .activated else { return [] }
            state.counterpartListening = SessionSnapshot.counterpartListening(status: status, presence: presence)
            defer { state.snapshot = new }
            return state.snapshot.callbacks(to: new, role: role)
        }
        if role == .phone, session.activationState == .activated {
            WatchDirectory(configuration: runtime.configuration).follow(installed: new.counterpartInstalled, logger: runtime.logger)
        }
        session.snapshotSignal.fire()
        for callback in callbacks {
            session.notifyDelegate { session, delegate in
                switch callback {
                case .watchStateDidChange: delegate.sessionWatchStateDidChange(session)
                case .companionAppInstalledDidChange: delegate.sessionCompanionAppInstalledDidChange(session)
                case .reachabilityDidChange: delegate.sessionReachabilityDidChange(session)
                }
            }
        }
    }
}
