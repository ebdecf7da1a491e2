import Foundation
import WatchPairCore
import WatchPairHost
import WatchPairWire

extension WCSession {
    /// Starts the session asynchronously; the delegate learns the outcome through
    /// `session(_:activationDidCompleteWith:error:)`, called before any other callback.
    ///
    /// Set the delegate first: without one this only logs an error (Apple leaves it undefined).
    /// Calling it while activating or activated does nothing; after `sessionDidDeactivate` it starts again.
    ///
    /// Activation fails (`.notActivated` with an error) when no role is configured (7002,
    /// `sessionNotSupported`) or when the store cannot be opened or a socket cannot be bound — for
    /// example because `phoned`/`watchd` for the same side is running (7001, `genericError`, saying which).
    /// After success, content that arrived or finished while the app was not running is delivered
    /// (`didReceiveUserInfo`, `didReceiveApplicationContext`, `didFinish`), and messages are delivered
    /// from then on, including one that launched the app.
    public func activate() {
        let hasDelegate = delegate != nil
        let started = state.withLock { state -> Bool in
            guard hasDelegate, case .idle = state.phase else { return false }
            let task = EngineExecutor.shared.spawn { await self.runSession() }
            state.phase = .activating(task)
            return true
        }
        if !started, !hasDelegate {
            logger.info("WCSession.activate() called without a delegate: set WCSession.default.delegate first (WCError 7003)")
        }
    }

    /// One activation, from setup to stop: builds the app's host (WatchPairHost: store, link listener,
    /// control socket answering `status`, engine) and runs it, with the deliveries and the state follower
    /// as children, until cancelled (`shutdown()`), until the host fails (its listener broke), or, on a
    /// phone with several watches, until a switch or an unpair ends it (docs/Watches.md).
    func runSession() async {
        var configuration: WCSessionConfiguration
        do {
            configuration = try await loadConfiguration()
            configuration.quirks.merge(state.withLock { $0.quirks }) { $1 }
        } catch {
            activationFailed(WCError(.sessionNotSupported, message: "WatchConnectivity is not configured: \(error)"))
            return
        }
        // A phone with several watches binds the active one; with none active it activates unpaired and
        // waits for a pairing or a switch (`rebound`: then that is a state change, not an activation).
        var watch: PairName?
        var rebound = false
        if !configuration.watches.isEmpty {
            do throws(WCError) {
                watch = try await bindWatchForActivation()
            } catch {
                activationFailed(error)
                return
            }
            if watch == nil {
                guard let bound = await activateWithoutWatch() else {
                    activationEnded()
                    return
                }
                (watch, rebound) = (bound, true)
            }
        }
        let runtime: SessionRuntime
        do {
            runtime = try await SessionRuntime.build(
                configuration: watch.map { configuration.forWatch($0) } ?? configuration, overrides: overrides.forWatch(watch),
                logger: logger, watches: watch.map { (self, configuration, $0.rawValue) })
        } catch {
            activationFailed(WCError(.genericError, message: "WatchConnectivity could not start: \(error)"))
            return
        }
        let host = runtime.host
        let activated = AsyncSignal()
        await runtime.channels.setMessageHandler(MessageDelivery(runtime: runtime).handler(for: self, activated: activated))
        // Not a child: on cancellation the host shuts down gracefully (control socket first, then the
        // engine, then the link socket and the store, whose close checkpoints the WAL) in a task that is
        // not cancelled itself.
        let hostRun = EngineExecutor.shared.spawn { () -> (any Error)? in
            do {
                try await host.run(handlingSignals: false)
                return nil
            } catch {
                return error
            }
        }
        let hostFailure = await withTaskGroup(of: (any Error)?.self) { group -> (any Error)? in
            group.addTask {
                await withTaskCancellationHandler {
                    await hostRun.value
                } onCancel: {
                    EngineExecutor.shared.spawn { await host.shutdown() }
                }
            }
            await overrides.beforeActivationCompletes?(host)
            if !Task.isCancelled {
                await completeActivation(runtime, watch: watch?.rawValue, rebound: rebound)
                activated.fire()
                group.addTask {
                    await SessionDelivery(session: self, runtime: runtime).run()
                    return nil
                }
                group.addTask {
                    await SessionSnapshotRefresh(session: self, runtime: runtime).run()
                    return nil
                }
                group.addTask {
                    await SessionDelivery(session: self, runtime: runtime).followFileProgress()
                    return nil
                }
                if let watch {
                    group.addTask {
                        await WatchSwitchDrain(session: self, runtime: runtime, watch: watch.rawValue).run() ? WatchSwitched() : nil
                    }
                }
            }
            // The first child to end (the host failing, a switch, or all of them on cancellation) ends the activation.
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        await runtime.channels.setMessageHandler(nil)
        if hostFailure is WatchSwitched {
            // The old watch's engine is closed: what it still holds waits for that watch to be active again.
            deactivatedBySwitch()
            return
        }
        if let hostFailure, !Task.isCancelled {
            runtime.logger.info("the session's host stopped", metadata: ["error": "\(hostFailure)"])
            state.withLock { $0.activationState = .inactive }
            notifyDelegate { session, delegate in delegate.sessionDidBecomeInactive(session) }
        }
        let wasActive = activationEnded()
        if hostFailure != nil, wasActive, !Task.isCancelled {
            notifyDelegate { session, delegate in delegate.sessionDidDeactivate(session) }
        }
    }

    /// Returns the session to `.idle` and `.notActivated` (the switch machine too); true when it was
    /// active (or inactive) before.
    @discardableResult
    func activationEnded() -> Bool {
        let wasActive = state.withLock { state -> Bool in
            defer {
                state.phase = .idle
                state.activationState = .notActivated
                state.snapshot.reachable = false
                _ = try? state.watches?.event(.activationEnded)
            }
            return state.activationState != .notActivated
        }
        watchSignal.fire()
        return wasActive
    }

    /// Fills the snapshots, marks the session activated and tells the delegate: the activation completed,
    /// or, when the session was activated without a watch and is now `rebound` to one, the watch's state changed.
    /// On a phone with several watches, an activation bound to another `watch` than the last one also
    /// reports `sessionWatchStateDidChange` (the session now describes another watch).
    private func completeActivation(_ runtime: SessionRuntime, watch: String?, rebound: Bool) async {
        let channels = runtime.channels
        let sent = (try? await channels.applicationContext()) ?? [:]
        let received = (try? await channels.receivedApplicationContext()) ?? [:]
        let status = await channels.status()
        let presence = await runtime.transport.peerPresence()
        let activated = state.withLock { state -> Bool in
            guard case .activating(let task) = state.phase else { return false }
            state.phase = .active(runtime, task)
            state.activationState = .activated
            state.applicationContext = sent
            state.receivedApplicationContext = received
            state.snapshot = SessionSnapshot(status: status, presence: presence)
            state.counterpartListening = SessionSnapshot.counterpartListening(status: status, presence: presence)
            return true
        }
        guard activated else { return }
        let otherWatch = noteBoundWatch(watch)
        snapshotSignal.fire()
        runtime.logger.info(
            "WCSession activated",
            metadata: [
                "launch": "\(runtime.launch.rawValue)", "stateDirectory": "\(runtime.configuration.stateDirectory)",
                "link": "\(runtime.configuration.linkSocketPath)",
            ])
        notifyDelegate { session, delegate in
            if !rebound { delegate.session(session, activationDidCompleteWith: .activated, error: nil) }
            if rebound || otherWatch { delegate.sessionWatchStateDidChange(session) }
        }
    }

    /// Reports a failed activation and returns to `.idle`.
    private func activationFailed(_ error: WCError) {
        logger.info("WCSession activation failed", metadata: ["error": "\(error)"])
        activationEnded()
        notifyDelegate { session, delegate in
            delegate.session(session, activationDidCompleteWith: .notActivated, error: error)
        }
    }

    /// Stops the session as if the app exited: no callback is made, nothing undelivered is acknowledged,
    /// sockets and store are closed. Returns once everything has stopped. (Tests; apps just exit.)
    package func shutdown() async {
        await beginShutdown()?.value
    }

    /// Starts `shutdown()`: from now on nothing more is acknowledged. Returns the task to await.
    func beginShutdown() -> Task<Void, Never>? {
        let task = state.withLock { state -> Task<Void, Never>? in
            switch state.phase {
            case .idle: return nil
            case .activating(let task), .active(_, let task), .stopping(let task):
                state.phase = .stopping(task)
                state.activationState = .inactive
                return task
            }
        }
        task?.cancel()
        return task
    }

    /// The runtime to send through, or the error Apple reports: 7003 without a delegate, 7004 when not
    /// activated, 7016 while stopping or switching watches, 7005 while activated with no watch paired.
    func runtimeForSending() throws(WCError) -> SessionRuntime {
        guard delegate != nil else { throw WCError(.sessionMissingDelegate) }
        return try state.withLock { state throws(WCError) -> SessionRuntime in
            if state.activationState == .activated, state.watches?.session == .activated(watch: nil) {
                throw WCError(.deviceNotPaired)
            }
            switch state.phase {
            case .active(let runtime, _) where state.activationState == .activated:
                return runtime
            case .stopping, .active:
                throw WCError(.sessionInactive)
            case .idle, .activating:
                throw WCError(.sessionNotActivated)
            }
        }
    }

    /// The active runtime, for reads (nil when not activated).
    var activeRuntime: SessionRuntime? {
        state.withLock { state in
            if case .active(let runtime, _) = state.phase { return runtime }
            return nil
        }
    }
}
