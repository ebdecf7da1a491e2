import Foundation
import WatchPairCore
import WatchPairWire

extension WCSession {
    /// At most this many stored items are handed to the delegate per batch before they are acknowledged.
    static let deliveryBatchSize = 64

    /// The engine's handler for live messages: waits until activation has been reported, then calls the
    /// matching delegate method on the delegate queue and answers with its reply.
    ///
    /// A message that arrives while the app is still activating (one that launched it) is held until
    /// `activationDidCompleteWith` has been enqueued, so it is delivered after it. The engine bounds how
    /// many are held (`maxConcurrentIncomingMessages`).
    func messageHandler(runtime: SessionRuntime, activated: AsyncSignal) -> MessageHandler {
        let timeout = runtime.configuration.replyTimeout
        let clock = runtime.clock
        return MessageHandler(variants: Set(MessageVariant.allCases)) { [weak self] incoming in
            await activated.wait(after: 0)
            guard let self, !Task.isCancelled else {
                return .failure(WCFailure(.deliveryFailed, "the app's session stopped"))
            }
            return await self.deliver(incoming, timeout: timeout, clock: clock)
        }
    }

    private func deliver(_ incoming: IncomingMessage, timeout: Duration, clock: any Clock<Duration>) async -> ReplySlot.Outcome {
        let slot = ReplySlot()
        let callback: String
        let handled: Bool
        switch (incoming.body, incoming.wantsReply) {
        case (.dictionary(let message), false):
            callback = "session(_:didReceiveMessage:)"
            handled = await onDelegateQueue { session in
                session.callMessageCallback { $0.session(session, didReceiveMessage: PropertyListBridge.object(from: message)) }
            }
            slot.complete(.success(nil))
        case (.dictionary(let message), true):
            callback = "session(_:didReceiveMessage:replyHandler:)"
            handled = await onDelegateQueue { session in
                session.callMessageCallback { delegate in
                    delegate.session(session, didReceiveMessage: PropertyListBridge.object(from: message)) { reply in
                        do {
                            slot.complete(.success(.dictionary(try PropertyListBridge.plist(from: reply))))
                        } catch {
                            slot.complete(.failure(WCFailure(.messageReplyFailed, "the reply is not a property list: \(error.localizedDescription)")))
                        }
                    }
                }
            }
        case (.data(let data), false):
            callback = "session(_:didReceiveMessageData:)"
            handled = await onDelegateQueue { session in
                session.callMessageCallback { $0.session(session, didReceiveMessageData: data) }
            }
            slot.complete(.success(nil))
        case (.data(let data), true):
            callback = "session(_:didReceiveMessageData:replyHandler:)"
            handled = await onDelegateQueue { session in
                session.callMessageCallback { delegate in
                    delegate.session(session, didReceiveMessageData: data) { reply in slot.complete(.success(.data(reply))) }
                }
            }
        }
        guard handled else {
            return .failure(WCFailure(.deliveryFailed, "the counterpart app does not implement \(callback)"))
        }
        return await slot.outcome(timeout: timeout, clock: clock)
    }

    /// Hands what the engine holds for the app to the delegate — received userInfo, the received context,
    /// finished transfers — and acknowledges each batch once its callbacks have returned, so what the
    /// app had not finished handling when it stopped is delivered again at the next activation.
    func deliverStoredContent(_ runtime: SessionRuntime) async {
        let engine = runtime.engine
        while !Task.isCancelled {
            let seen = engine.appSignal.generation
            do {
                var delivered = try await deliverUserInfo(engine)
                if try await deliverContext(engine) { delivered = true }
                if try await deliverFinished(engine, runtime: runtime) { delivered = true }
                if delivered { continue }
            } catch {
                runtime.logger.info("reading received content from the store failed", metadata: ["error": "\(error)"])
            }
            state.withLock { $0.hasContentPending = false }
            await engine.appSignal.wait(after: seen)
        }
    }

    private func deliverUserInfo(_ engine: PairEngine) async throws(WCFailure) -> Bool {
        let batch = try await engine.pendingUserInfo(limit: Self.deliveryBatchSize)
        guard let last = batch.last else { return false }
        state.withLock { $0.hasContentPending = true }
        await onDelegateQueue { session in
            for transfer in batch {
                let userInfo = PropertyListBridge.object(from: transfer.payload)
                session.delegate?.session(session, didReceiveUserInfo: userInfo)
            }
        }
        guard !Task.isCancelled else { return false }
        try await engine.acknowledgeUserInfo(upTo: last.deliveryId)
        return true
    }

    private func deliverContext(_ engine: PairEngine) async throws(WCFailure) -> Bool {
        guard let context = try await engine.pendingContext() else { return false }
        state.withLock { state in
            state.hasContentPending = true
            state.receivedApplicationContext = context.payload
        }
        await onDelegateQueue { session in
            session.delegate?.session(session, didReceiveApplicationContext: PropertyListBridge.object(from: context.payload))
        }
        guard !Task.isCancelled else { return false }
        try await engine.acknowledgeContext(version: context.version)
        return true
    }

    private func deliverFinished(_ engine: PairEngine, runtime: SessionRuntime) async throws(WCFailure) -> Bool {
        let finished = try await engine.pendingFinished(limit: Self.deliveryBatchSize)
        guard !finished.isEmpty else { return false }
        state.withLock { $0.hasContentPending = true }
        // A transfer can finish before `transferUserInfo` has registered its object: wait for that.
        while !Task.isCancelled {
            let seen = registrationSignal.generation
            if state.withLock({ $0.registrationsInProgress }) == 0 { break }
            await registrationSignal.wait(after: seen)
        }
        let transfers = finished.map { stored in
            let transfer = transferObject(for: stored, runtime: runtime, isTransferring: false)
            transfer.markFinished()
            state.withLock { _ = $0.transfers.remove(stored.transferId) }
            return transfer
        }
        await onDelegateQueue { session in
            for transfer in transfers {
                session.delegate?.session(session, didFinish: transfer, error: nil)
            }
        }
        guard !Task.isCancelled else { return false }
        try await engine.acknowledgeFinished(finished.map(\.transferId))
        return true
    }

    /// Keeps `isReachable` and `isWatchAppInstalled` current and calls `sessionReachabilityDidChange` and
    /// `sessionWatchStateDidChange` (phone) / `sessionCompanionAppInstalledDidChange` (watch) on each change.
    ///
    /// Woken by the engine's state signal (link up or down, reachability) and by changes of the
    /// counterpart's socket files; never polls.
    func followState(_ runtime: SessionRuntime) async {
        let refresh = AsyncSignal()
        let engine = runtime.engine
        await withDiscardingTaskGroup { group in
            group.addTask {
                var seen = engine.stateSignal.generation
                while !Task.isCancelled {
                    await engine.stateSignal.wait(after: seen)
                    seen = engine.stateSignal.generation
                    refresh.fire()
                }
            }
            group.addTask {
                for await _ in runtime.transport.peerChanges() { refresh.fire() }
            }
            while !Task.isCancelled {
                let seen = refresh.generation
                await updateState(runtime)
                await refresh.wait(after: seen)
            }
            group.cancelAll()
        }
    }

    private func updateState(_ runtime: SessionRuntime) async {
        let status = await runtime.engine.status()
        let presence = await runtime.transport.peerPresence()
        // A fresh look at the socket file, or a live link; the engine's own presence cache may lag.
        let installed = presence.installed || status.link == "connected"
        runtime.logger.debug("state refreshed", metadata: [
            "presence": "\(presence)", "peerInstalled": "\(status.peerInstalled)", "reachable": "\(status.reachable)", "link": "\(status.link)",
        ])
        let (installedChanged, reachableChanged) = state.withLock { state -> (Bool, Bool) in
            guard state.activationState == .activated else { return (false, false) }
            defer {
                state.counterpartInstalled = installed
                state.reachable = status.reachable
            }
            return (state.counterpartInstalled != installed, state.reachable != status.reachable)
        }
        snapshotSignal.fire()
        if installedChanged {
            let role = runtime.configuration.role
            notifyDelegate { session, delegate in
                switch role {
                case .phone: delegate.sessionWatchStateDidChange(session)
                case .watch: delegate.sessionCompanionAppInstalledDidChange(session)
                }
            }
        }
        if reachableChanged {
            notifyDelegate { session, delegate in delegate.sessionReachabilityDidChange(session) }
        }
    }
}
