import Foundation
import WatchPairCore
import WatchPairHost
import WatchPairWire

extension WCSession {
    /// Sends a live message to the counterpart (DESIGN.md §2, channel "message").
    ///
    /// Exactly one of `replyHandler` or `errorHandler` is called, once, on the delegate queue — with a
    /// reply handler: the counterpart's reply or an error; without one: nothing on success, `errorHandler`
    /// on failure. Errors: 7003/7004 (session not ready), 7010 (not a property list), 7009 (over 64 KiB),
    /// 7007 (counterpart not reachable), 7012 (no reply within 10 s), 7014 (the counterpart does not
    /// implement that callback, or the link dropped before the answer).
    public func sendMessage(
        _ message: [String: Any],
        replyHandler: (([String: Any]) -> Void)?,
        errorHandler: ((any Error) -> Void)? = nil
    ) {
        let handlers = Unchecked((reply: replyHandler, error: errorHandler))
        let body: PlistDictionary
        let runtime: SessionRuntime
        do {
            runtime = try runtimeForSending()
            body = try PropertyListBridge.plist(from: message)
        } catch {
            delegateQueue.async { handlers.value.error?(error) }
            return
        }
        MessageSend(runtime: runtime, delegateQueue: delegateQueue).start(.dictionary(body), wantsReply: replyHandler != nil) { result in
            switch result {
            case .success(.dictionary(let reply)?): handlers.value.reply?(PropertyListBridge.object(from: reply))
            case .success: break
            case .failure(let error): handlers.value.error?(error)
            }
        }
    }

    /// Sends a live data message; same rules as `sendMessage(_:replyHandler:errorHandler:)`.
    public func sendMessageData(
        _ data: Data,
        replyHandler: ((Data) -> Void)?,
        errorHandler: ((any Error) -> Void)? = nil
    ) {
        let handlers = Unchecked((reply: replyHandler, error: errorHandler))
        let runtime: SessionRuntime
        do {
            runtime = try runtimeForSending()
        } catch {
            delegateQueue.async { handlers.value.error?(error) }
            return
        }
        MessageSend(runtime: runtime, delegateQueue: delegateQueue).start(.data(data), wantsReply: replyHandler != nil) { result in
            switch result {
            case .success(.data(let reply)?): handlers.value.reply?(reply)
            case .success: break
            case .failure(let error): handlers.value.error?(error)
            }
        }
    }

    /// Replaces the application context sent to the counterpart; returns once it is durable.
    ///
    /// The counterpart ends with the newest value (intermediate ones may be skipped); a value identical
    /// to the last one sent is not sent again; `[:]` clears it. Throws `WCError`: 7003/7004/7016 (session
    /// not ready), 7010 (not a property list), 7009 (over 256 KiB), 7015 (disk full).
    public func updateApplicationContext(_ applicationContext: [String: Any]) throws {
        let runtime = try runtimeForSending()
        let payload = try PropertyListBridge.plist(from: applicationContext)
        let engine = runtime.engine
        let result = EngineExecutor.shared.blockingCall { () -> Result<Void, WCFailure> in
            do throws(WCFailure) {
                try await engine.updateApplicationContext(payload)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let failure) = result { throw WCError(failure) }
        state.withLock { $0.applicationContext = payload }
    }

    /// Queues `userInfo` for delivery to the counterpart (DESIGN.md §2, channel "userInfo"); returns once the
    /// transfer is durable on disk.
    ///
    /// The counterpart receives every transfer exactly once, in order, whenever it can — also across
    /// crashes and restarts of either side. `session(_:didFinish:error:)` reports when it arrived (on the
    /// next launch if the app was not running). A transfer that cannot be accepted — session not ready
    /// (7003/7004/7016), not a property list (7010), over 64 KiB (7009), outbox full (7015) — is returned
    /// with `isTransferring == false` and reported to `session(_:didFinish:error:)` with the error.
    @discardableResult
    public func transferUserInfo(_ userInfo: [String: Any] = [:]) -> WCSessionUserInfoTransfer {
        queueUserInfo(userInfo) { (engine, payload) async throws(WCFailure) -> OutboxTransfer in
            try await engine.transferUserInfo(payload)
        }
    }

    /// Phone side: sends complication data to the watch app (`transferCurrentComplicationUserInfo`), as a
    /// userInfo flagged `isCurrentComplicationInfo`, delivered to the watch's
    /// `session(_:didReceiveUserInfo:)` in order with the other userInfo, durable like them.
    ///
    /// Each call uses one of `remainingComplicationUserInfoTransfers` (50 a UTC day by default); at 0 the
    /// transfer still goes, as a plain userInfo (`isCurrentComplicationInfo` false), as Apple does. Refused
    /// as `transferUserInfo` is (the same checks), and also with 7008 on the watch side and with 7001
    /// while `isComplicationEnabled` is false ("fails immediately"): returned with `isTransferring ==
    /// false` and reported to `session(_:didFinish:error:)`.
    @discardableResult
    public func transferCurrentComplicationUserInfo(_ userInfo: [String: Any] = [:]) -> WCSessionUserInfoTransfer {
        queueUserInfo(userInfo) { (engine, payload) async throws(WCFailure) -> OutboxTransfer in
            try await engine.transferCurrentComplicationUserInfo(payload)
        }
    }

    /// Phone side: complication transfers left today (UTC days on the session's clock); 0 on the watch,
    /// before activation and while `isComplicationEnabled` is false, as Apple reports it.
    public var remainingComplicationUserInfoTransfers: Int {
        guard let runtime = activeRuntime else { return 0 }
        let engine = runtime.engine
        return EngineExecutor.shared.blockingCall { await engine.remainingComplicationUserInfoTransfers() }
    }

    /// `transferUserInfo` and `transferCurrentComplicationUserInfo`: converts, queues through `enqueue`, and
    /// returns the registered transfer object, or a refused one reported to `didFinish`.
    private func queueUserInfo(
        _ userInfo: [String: Any],
        _ enqueue: @escaping @Sendable (PairEngine, PlistDictionary) async throws(WCFailure) -> OutboxTransfer
    ) -> WCSessionUserInfoTransfer {
        let runtime: SessionRuntime
        let payload: PlistDictionary
        do {
            runtime = try runtimeForSending()
            payload = try PropertyListBridge.plist(from: userInfo)
        } catch {
            return refusedTransfer(.refused(userInfo), error)
        }
        let engine = runtime.engine
        // Until the object is registered, a didFinish for it must wait (see `SessionDelivery`), or the
        // delegate could be handed a different object than the one returned here.
        let result = transfers.registering {
            EngineExecutor.shared.blockingCall { () -> Result<WCSessionUserInfoTransfer, WCFailure> in
                do throws(WCFailure) {
                    let stored = try await enqueue(engine, payload)
                    return .success(self.transfers.object(for: stored, engine: engine, isTransferring: true))
                } catch {
                    return .failure(error)
                }
            }
        }
        switch result {
        case .success(let transfer):
            return transfer
        case .failure(let failure):
            return refusedTransfer(.plist(payload), WCError(failure))
        }
    }

    /// Transfers accepted and not yet received by the counterpart, oldest first. Blocks until the engine
    /// has read them from its store. Empty before activation.
    public var outstandingUserInfoTransfers: [WCSessionUserInfoTransfer] {
        guard let runtime = activeRuntime else { return [] }
        let engine = runtime.engine
        let outstanding = EngineExecutor.shared.blockingCall { () -> [OutboxTransfer] in
            (try? await engine.outstandingUserInfoTransfers()) ?? []
        }
        return outstanding.map { transfers.object(for: $0, engine: engine, isTransferring: true) }
    }

    /// A transfer that was not accepted: returned not transferring, and reported to `didFinish` with `error`.
    private func refusedTransfer(_ payload: WCSessionUserInfoTransfer.Payload, _ error: WCError) -> WCSessionUserInfoTransfer {
        let transfer = WCSessionUserInfoTransfer(transferId: nil, payload: payload, isTransferring: false, canceller: nil)
        logger.debug("userInfo transfer refused", metadata: ["error": "\(error)"])
        notifyDelegate { session, delegate in
            delegate.session(session, didFinish: transfer, error: error)
        }
        return transfer
    }
}
