import WatchPairWire

extension PairEngine {
    /// Sends a live message (`sendMessage` / `sendMessageData`).
    ///
    /// Fails at once with 7007 when the peer is not reachable. Otherwise exactly one outcome is reported:
    /// the reply (`wantsReply`), nil (delivered, no reply wanted), or an error — 7014 when the receiver has no
    /// handler for this variant or the link drops first, 7012 when nothing arrives within `timeout`
    /// (default `configuration.replyTimeout`), or the receiver's own error. The timeout counts from the
    /// call's start and bounds link set-up and handshake too (``MessageCall``): a peer that accepts but
    /// never completes a handshake gives 7007 within the handshake timeout or `timeout`, the shorter.
    public func sendMessage(
        _ body: MessageBody,
        wantsReply: Bool,
        timeout: Duration? = nil
    ) async throws(WCFailure) -> MessageBody? {
        let channel = DiagnosticEvent.Channel.message
        do {
            try configuration.limits.check(body)
        } catch {
            emit(.payloadRejected, "message refused: \(error.message)", channel: channel, errorCode: error.code)
            throw error
        }
        guard spawner != nil else {
            let failure = WCFailure(.sessionNotActivated, "the session is not activated")
            emit(.messageFailed, "message not sent: \(failure.message)", channel: channel, errorCode: failure.code)
            throw failure
        }
        nextMessageId += 1
        let id = nextMessageId
        let outcome = OneShot<Result<MessageBody, WCFailure>>()
        pending[id] = PendingMessage(outcome: outcome)
        let deadlines = MessageCall.Deadlines(
            timeout: timeout ?? configuration.replyTimeout, handshakeTimeout: configuration.handshakeTimeout)
        let started = ContinuousClock.now
        let result = await runCall(id, outcome, .message(id: id, wantsReply: wantsReply, body: body), deadlines)
        let elapsed = ContinuousClock.now - started
        switch result {
        case .success(let reply):
            emit(.messageSent, "message \(id) \(wantsReply ? "answered" : "delivered")", channel: channel, seq: id, duration: elapsed)
            return wantsReply ? reply : nil
        case .failure(let failure):
            emit(
                .messageFailed, "message \(id) failed: \(failure.message)",
                channel: channel, seq: id, errorCode: failure.code, duration: elapsed
            )
            throw failure
        }
    }

    /// Runs call `id` until its machine completes it: the deadline and the delivery race, and whichever
    /// the machine accepts first is the outcome.
    func runCall(
        _ id: UInt64,
        _ outcome: OneShot<Result<MessageBody, WCFailure>>,
        _ frame: Frame,
        _ deadlines: MessageCall.Deadlines
    ) async -> Result<MessageBody, WCFailure> {
        let clock = self.clock
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                guard (try? await clock.sleep(for: deadlines.reply)) != nil else { return }
                await self.messageEvent(id, .deadline(deadlines.reply))
            }
            group.addTask { await self.deliver(id, frame, linkWithin: deadlines.link) }
            let result = await outcome.wait()
            group.cancelAll()
            if let result { return result }
            messageEvent(id, .cancelled)
            return outcome.current ?? .failure(WCFailure(.deliveryFailed, "the sender stopped waiting (cancelled)"))
        }
    }

    /// Finds or makes the link for call `id` and writes its frame, as its machine says.
    func deliver(_ id: UInt64, _ frame: Frame, linkWithin limit: Duration) async {
        let link: Link
        switch await linkForMessage(within: limit) {
        case .success(let found): link = found
        case .failure(let failure):
            messageEvent(id, .linkUnavailable(failure))
            return
        }
        guard case .send = messageEvent(id, .linkReady(linkId: link.id)) else { return }
        do {
            try await link.send(frame)
        } catch {
            messageEvent(id, .sendFailed("\(error)"))
        }
    }

    /// Feeds `event` to call `id`'s machine and completes the call when it says so. Unknown ids (calls
    /// already over) are ignored: a late reply changes nothing.
    @discardableResult
    func messageEvent(_ id: UInt64, _ event: MessageCall.Event) -> MessageCall.Action {
        guard var message = pending[id] else {
            logger.debug("late or unknown answer ignored", metadata: ["message": "\(id)"])
            return .none
        }
        let action = message.call.event(event)
        if case .complete(let result) = action {
            pending[id] = nil
            message.outcome.complete(result)
        } else {
            pending[id] = message
        }
        return action
    }

    /// Hands an incoming message to the app's handler in its own task, and answers it on the link.
    func receiveMessage(_ message: IncomingMessage, on link: Link, group: inout DiscardingTaskGroup) {
        let variant = message.variant
        let handler: MessageHandler
        switch messageHandler {
        case .some(let installed) where installed.variants.contains(variant):
            guard incomingInFlight < configuration.maxConcurrentIncomingMessages else {
                refuseMessage(message, on: link, group: &group, "the app is busy with \(incomingInFlight) messages")
                return
            }
            handler = installed
        default:
            refuseMessage(message, on: link, group: &group, "the app has no handler for \(variant.rawValue) messages")
            return
        }
        incomingInFlight += 1
        emit(.messageReceived, "message \(message.id) (\(variant.rawValue)) received", channel: .message, seq: message.id)
        group.addTask {
            let result = await handler.handle(message)
            await self.finishIncoming(message, on: link, result: result)
        }
    }

    func refuseMessage(_ message: IncomingMessage, on link: Link, group: inout DiscardingTaskGroup, _ reason: String) {
        let frame = answerFrame(message, with: .failure(WCFailure(.deliveryFailed, reason)))
        group.addTask { try? await link.send(frame) }
    }

    func finishIncoming(_ message: IncomingMessage, on link: Link, result: Result<MessageBody?, WCFailure>) async {
        incomingInFlight -= 1
        try? await link.send(answerFrame(message, with: result))
    }

    /// The reply or error frame for `message` (``MessageAnswer``); a refusal (7014) is logged.
    func answerFrame(_ message: IncomingMessage, with result: Result<MessageBody?, WCFailure>) -> Frame {
        if case .failure(let failure) = result, failure.code == .deliveryFailed {
            emit(.messageFailed, "message \(message.id) not handled: \(failure.message)", channel: .message, seq: message.id, errorCode: failure.code)
        }
        return MessageAnswer.frame(for: message, result: result, limits: configuration.limits)
    }
}
