import ServiceLifecycle
import WatchPairCore

/// Ends a background launch once the daemon has had nothing to do for `timeouts.idleExit` (docs/Systemd.md).
///
/// Idle means: no outbound work (no outstanding userInfo transfer, the peer holds the newest sent
/// context) and no control client attached. Received items waiting for the app do not count: they
/// wait durably for the app's next launch. The timer restarts whenever something arrives for the app
/// (`appSignal`), the link or reachability changes (`stateSignal`), or a control client attaches or
/// leaves. While a client is attached only its leaving is watched (nothing else can make the daemon
/// idle then); otherwise, while busy, it re-checks every ``busyPollInterval`` (a context
/// acknowledgement fires no public signal). When the timer runs out it emits `idleExit` and asks the
/// service group to shut down gracefully; it never returns before its own shutdown, so the group's
/// shutdown order holds.
struct IdleExitMonitor: Service {
    /// How often the busy state is re-checked when no signal fires.
    static let busyPollInterval: Duration = .seconds(1)

    let engine: PairEngine
    /// The control server, whose attached clients keep the host busy (nil: none).
    let server: ControlServer?
    let idleExit: Duration
    let clock: any Clock<Duration>
    /// Starts the graceful shutdown of the whole daemon.
    let requestShutdown: @Sendable () async -> Void

    func run() async {
        let reachedIdle = await cancelWhenGracefulShutdown { await self.waitForIdleExit() }
        if !reachedIdle, await engine.launch == .foreground {
            // Opened: the app stays up until it is stopped; returning early would end the service group.
            try? await gracefulShutdown()
            return
        }
        if reachedIdle {
            let message = "\(engine.configuration.role.daemonName) exits after \(idleExit.seconds) s with nothing to do (background launch)"
            engine.diagnostics.emit(DiagnosticEvent(.idleExit, role: engine.configuration.role, message))
            await requestShutdown()
            try? await gracefulShutdown()
        }
    }

    /// Returns true once idle for `idleExit`, false when cancelled or shut down first, or once the app
    /// was opened (``PairEngine/open()``: the foreground never exits by itself; `stateSignal` fires).
    private func waitForIdleExit() async -> Bool {
        while !Task.isCancelled {
            guard await engine.launch == .background else { return false }
            let activity = server.map { ($0.activity, $0.activity.generation) }
            let signals = [
                (engine.appSignal, engine.appSignal.generation),
                (engine.stateSignal, engine.stateSignal.generation),
            ] + (activity.map { [$0] } ?? [])
            if let server, let activity, server.attachedClients > 0 {
                // Busy while a client is attached, whatever else happens: only a client's leaving can
                // change that, so only the server's activity is watched. Waking on every app signal
                // too was a task group and a timer per transfer while an app is attached.
                await activity.0.wait(after: activity.1)
                continue
            }
            if await isIdle() {
                // Any signal ends the wait early and restarts the timer.
                if await Waiting.any(signals, orAfter: idleExit, on: clock), await isIdle(), await engine.launch == .background {
                    return !Task.isCancelled
                }
            } else {
                await Waiting.any(signals, orAfter: Self.busyPollInterval, on: clock)
            }
        }
        return false
    }

    private func isIdle() async -> Bool {
        guard (server?.attachedClients ?? 0) == 0 else { return false }
        // A file arriving is activity too, though nothing of this side's is outstanding.
        let status = await engine.status()
        return status.isDrained && !status.receivingFile
    }
}
