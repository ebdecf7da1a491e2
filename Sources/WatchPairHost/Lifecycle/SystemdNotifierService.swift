import ServiceLifecycle
import WatchPairCore

/// Talks to systemd (`Type=notify`): `READY=1` when the daemon runs, a one-line `STATUS=` kept current,
/// `WATCHDOG=1` pings, and `STOPPING=1` when shutdown begins. Outside systemd (no `NOTIFY_SOCKET`) it
/// only waits for shutdown.
///
/// It is started once the store is open and both sockets are bound (``buildHost(configuration:logger:environment:)``
/// does that before building the services), so `READY=1` means "connectable". It is the last service of
/// the group, so its graceful shutdown, which sends `STOPPING=1`, comes first.
struct SystemdNotifierService: Service {
    /// How often `STATUS=` is refreshed when no signal fires.
    static let statusInterval: Duration = .seconds(5)
    /// The least time between two `STATUS=` updates (``StatusPacing``).
    static let statusMinimumInterval: Duration = .seconds(1)

    let notifier: SystemdNotifications
    let engine: PairEngine
    let clientCount: @Sendable () -> Int
    let clock: any Clock<Duration>

    func run() async {
        guard notifier.isEnabled else {
            try? await gracefulShutdown()
            return
        }
        let initial = await statusLine()
        notifier.send(.ready(status: initial))
        let notifier = self.notifier
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.keepStatusCurrent(since: initial, on: self.clock) }
                if let interval = notifier.watchdogInterval {
                    group.addTask { await self.pingWatchdog(every: interval / 2) }
                }
            }
        }
        notifier.send(.stopping)
    }

    /// Sends `STATUS=` when it changed (on link, reachability and app-delivery signals, or periodically),
    /// paced by ``StatusPacing``.
    private func keepStatusCurrent<C: Clock>(since initial: String, on clock: C) async where C.Duration == Duration {
        let start = clock.now
        var pacing = StatusPacing(minimumInterval: Self.statusMinimumInterval, initial: initial)
        while !Task.isCancelled {
            // Taken before the line is read, so a change while it is read or sent is not missed.
            let signals = [(engine.stateSignal, engine.stateSignal.generation), (engine.appSignal, engine.appSignal.generation)]
            let line = await statusLine()
            switch pacing.event(read: line, at: start.duration(to: clock.now)) {
            case .nothing:
                break
            case .send:
                notifier.send(.status(line))
            case .readAgain(let offset):
                // An absolute deadline: a clock that moved past it meanwhile lets the read happen at once.
                guard (try? await clock.sleep(until: start.advanced(by: offset), tolerance: nil)) != nil else { return }
                continue
            }
            await Waiting.any(signals, orAfter: Self.statusInterval, on: clock)
        }
    }

    /// Pings only after the engine actor answered, so a wedged engine stops the pings and systemd restarts it.
    private func pingWatchdog(every period: Duration) async {
        while !Task.isCancelled {
            _ = await engine.status()
            notifier.send(.watchdog)
            guard (try? await Waiting.sleep(on: clock, for: period)) != nil else { return }
        }
    }

    /// E.g. `link connected, 0 outstanding transfers, context sent 3 acked 3 received 2, 1 control client`.
    func statusLine() async -> String {
        let status = await engine.status()
        let clients = clientCount()
        return "link \(status.link), \(status.outstandingTransfers) outstanding transfer\(status.outstandingTransfers == 1 ? "" : "s"), "
            + "context sent \(status.contextSentVersion) acked \(status.contextAckedVersion) received \(status.contextReceivedVersion), "
            + "\(status.inboxPending) waiting for the app, \(clients) control client\(clients == 1 ? "" : "s")"
    }
}
