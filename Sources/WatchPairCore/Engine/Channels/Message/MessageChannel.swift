import WatchPairWire

/// The live-message channel's executor: the calls in progress (each with its ``MessageCall``
/// machine), the app's handler and the incoming messages it is handling.
///
/// Owned by one ``PairEngine`` and touched only on its actor: every method takes the engine as its
/// `isolated` parameter; child tasks reach the channel again through the engine (the static methods).
final class MessageChannel {
    private var nextId: UInt64 = 0
    /// Calls in progress, each with its own ``MessageCall`` machine.
    private(set) var pending: [UInt64: PendingMessage] = [:]
    /// The app's handler for live messages.
    var handler: MessageHandler?
    /// Incoming messages the app is handling (answered off the actor too, so counted apart).
    let incoming: IncomingMessages
    /// Every call's reply deadline, on one sleeper (run by the engine: ``expireCalls(_:)``).
    let deadlines: DeadlineQueue<UInt64>

    init(clock: some Clock<Duration>, signal: AsyncSignal) {
        deadlines = DeadlineQueue(clock: clock)
        incoming = IncomingMessages(signal: signal)
    }

    /// Calls waiting for their outcome plus incoming messages the app is handling.
    var inFlight: Int { pending.count + incoming.current }

    /// The outcome of a call as the app sees it: the reply, nil when none was wanted, or the failure.
    typealias Outcome = Result<MessageBody?, WCFailure>

    /// Takes both outcomes of a call hit by `replyAndError` at once, for a caller that can answer only
    /// once (a control client's `send`): the reply, and the error that followed it.
    typealias ReplyThenError = @Sendable (MessageBody?, WCFailure) -> Void

    /// Sends a live message and waits for its outcome; see ``PairEngine/sendMessage(_:wantsReply:timeout:)``.
    func send(
        _ body: MessageBody, wantsReply: Bool, timeout: Duration?, _ engine: isolated PairEngine
    ) async throws(WCFailure) -> MessageBody? {
        let outcome = OneShot<Outcome>()
        let (id, started) = try start(body, wantsReply: wantsReply, timeout: timeout, engine) { outcome.complete($0) }
        guard case .needsLink(let frame, let limit) = started else {
            return try await Self.outcome(of: id, outcome, engine).get()
        }
        return try await withTaskGroup(of: Void.self) { group in
            group.addTask { await MessageChannel.deliver(id, frame, linkWithin: limit, engine) }
            let result = await Self.outcome(of: id, outcome, engine)
            group.cancelAll()
            return result
        }.get()
    }

    /// Sends a live message whose outcome goes to `completion`, on the engine's actor, with no task
    /// waiting for it (the daemons' `send`); see ``PairEngine/sendMessage(_:wantsReply:timeout:completion:)``.
    func send(
        _ body: MessageBody, wantsReply: Bool, timeout: Duration?, _ engine: isolated PairEngine,
        completion: @escaping @Sendable (Outcome) -> Void, replyThenError: ReplyThenError? = nil
    ) throws(WCFailure) {
        let (id, started) = try start(body, wantsReply: wantsReply, timeout: timeout, engine, completion: completion)
        if let replyThenError { pending[id]?.replyThenError = replyThenError }
        if case .needsLink(let frame, let limit) = started {
            engine.work.start { await MessageChannel.deliver(id, frame, linkWithin: limit, engine) }
        }
    }

    /// How a call goes on once started.
    private enum Started {
        /// Its frame is on the current link; only its answer or deadline is left.
        case sent
        /// It needs a link first (made within the limit) or the socket could not take the frame now.
        case needsLink(Frame, limit: Duration)
    }

    /// Checks a message (refusals throw at once), records its call, arms its deadline and writes it on
    /// the current link when the connection takes it now. The call's one outcome goes to `completion`.
    private func start(
        _ body: MessageBody, wantsReply: Bool, timeout: Duration?, _ engine: isolated PairEngine,
        completion: @escaping @Sendable (Outcome) -> Void
    ) throws(WCFailure) -> (UInt64, Started) {
        let channel = DiagnosticEvent.Channel.message
        do {
            try engine.configuration.limits.check(body)
        } catch {
            engine.emit(.payloadRejected, "message refused: \(error.message)", channel: channel, errorCode: error.code)
            throw error
        }
        guard engine.spawner != nil else {
            let failure = WCFailure(.sessionNotActivated, "the session is not activated")
            engine.emit(.messageFailed, "message not sent: \(failure.message)", channel: channel, errorCode: failure.code)
            throw failure
        }
        if let failure = engine.peerPresence.watchState.refusal(role: engine.role) {
            engine.emit(.messageFailed, "message not sent: \(failure.message)", channel: channel, errorCode: failure.code)
            throw failure
        }
        if !engine.quirks.isEmpty, let failure = engine.quirkRefusesMessage() {
            engine.emit(.messageFailed, "message not sent: \(failure.message)", channel: channel, errorCode: failure.code)
            throw failure
        }
        nextId += 1
        let id = nextId
        let limits = MessageCall.Deadlines(
            timeout: timeout ?? engine.configuration.replyTimeout, handshakeTimeout: engine.configuration.handshakeTimeout)
        pending[id] = PendingMessage(wantsReply: wantsReply, started: .now, timeout: limits.reply, completion: completion)
        engine.messageSignal.fire()
        deadlines.add(id, timeout: limits.reply)
        let frame = Frame.message(id: id, wantsReply: wantsReply, body: body)
        return (id, sendOnCurrentLink(id, frame, engine) ? .sent : .needsLink(frame, limit: limits.link))
    }

    /// Waits for call `id`'s outcome; a caller that stops waiting ends the call (`.cancelled`).
    private static func outcome(of id: UInt64, _ outcome: OneShot<Outcome>, _ engine: isolated PairEngine) async -> Outcome {
        if let result = await outcome.wait() { return result }
        event(id, .cancelled, engine)
        return outcome.current ?? .failure(WCFailure(.deliveryFailed, "the sender stopped waiting (cancelled)"))
    }

    /// Fails each call whose reply deadline passed with 7012 (or 7007 while still linking), until the
    /// calling task is cancelled: a child of the engine's `run()`.
    static func expireCalls(_ engine: isolated PairEngine) async {
        await engine.messages.deadlines.run(
            isLive: { engine.messages.pending[$0] != nil },
            expire: { id, timeout in engine.messages.event(id, .deadline(timeout), engine) })
    }

    /// The common case, without a task of its own: a usable link is up and its connection takes the frame
    /// at once (``Link/sendNow(_:)``). False when it cannot; then ``deliver(_:_:linkWithin:_:)`` runs in a
    /// child task, so that waiting for a link or for the socket never outlasts the call's deadline.
    private func sendOnCurrentLink(_ id: UInt64, _ frame: Frame, _ engine: isolated PairEngine) -> Bool {
        guard let link = engine.current, case .success = Self.usable(link, role: engine.role), link.sendNow(frame) else {
            return false
        }
        // No suspension since the write, so no answer can have been handled before the machine hears of it.
        event(id, .linkReady(linkId: link.id), engine)
        return true
    }

    /// Finds or makes the link for call `id` and writes its frame, as its machine says.
    private static func deliver(_ id: UInt64, _ frame: Frame, linkWithin limit: Duration, _ engine: isolated PairEngine) async {
        let link: Link
        switch await linkForMessage(within: limit, engine) {
        case .success(let found): link = found
        case .failure(let failure):
            event(id, .linkUnavailable(failure), engine)
            return
        }
        guard case .send = event(id, .linkReady(linkId: link.id), engine) else { return }
        do {
            try await link.send(frame)
        } catch {
            event(id, .sendFailed("\(error)"), engine)
        }
    }

    /// ``event(_:_:_:)`` for a child task, which reaches the channel through the engine.
    @discardableResult
    private static func event(_ id: UInt64, _ event: MessageCall.Event, _ engine: isolated PairEngine) -> MessageCall.Action {
        engine.messages.event(id, event, engine)
    }

    /// Feeds `event` to call `id`'s machine and completes the call when it says so. Unknown ids (calls
    /// already over) are ignored: a late reply changes nothing for the caller, and is reported as
    /// `messageAnswerDropped`.
    @discardableResult
    func event(_ id: UInt64, _ event: MessageCall.Event, _ engine: isolated PairEngine) -> MessageCall.Action {
        guard var message = pending[id] else {
            if case .answered(let answer) = event {
                // Tells an app that answers too late from one that never answers, after the caller's 7012.
                let what = if case .failure(let failure) = answer { " (error \(failure.code.rawValue))" } else { "" }
                engine.emit(
                    .messageAnswerDropped, "late answer to message \(id)\(what) dropped: its call had already ended",
                    channel: .message, seq: id)
            } else {
                engine.logger.debug("event for a call already over ignored", metadata: ["message": "\(id)"])
            }
            return .none
        }
        let action = message.call.event(event)
        if case .complete(let result) = action {
            pending[id] = nil
            Self.finish(id, message, result, engine)
            engine.messageSignal.fire()
        } else {
            pending[id] = message
        }
        return action
    }

    /// Reports call `id`'s outcome: its event, then its caller.
    private static func finish(
        _ id: UInt64, _ message: PendingMessage, _ result: Result<MessageBody, WCFailure>, _ engine: isolated PairEngine
    ) {
        let elapsed = ContinuousClock.now - message.started
        switch result {
        case .success(let reply):
            engine.emit(
                .messageSent, "message \(id) \(message.wantsReply ? "answered" : "delivered")", channel: .message, seq: id, duration: elapsed)
            message.completion(.success(message.wantsReply ? reply : nil))
        case .failure(let failure):
            engine.emit(
                .messageFailed, "message \(id) failed: \(failure.message)",
                channel: .message, seq: id, errorCode: failure.code, duration: elapsed
            )
            message.completion(.failure(failure))
        }
    }

    /// `replyAndError`: call `id` completes with its reply, and then its caller also gets 7012 (the one
    /// place "exactly one outcome" is broken, on purpose).
    func answerThenFail(_ id: UInt64, _ body: MessageBody, _ engine: isolated PairEngine) {
        guard var message = pending[id] else { return }
        let failure = WCFailure(.messageReplyTimedOut, "an error after the reply")
        if let both = message.replyThenError {
            // The reply goes out together with the error that follows it; any other outcome as it is.
            let completion = message.completion
            message.completion = { outcome in
                if case .success(let reply) = outcome { both(reply, failure) } else { completion(outcome) }
            }
            pending[id] = message
        }
        guard case .complete = event(id, .answered(.success(body)), engine) else { return }
        engine.emit(
            .messageFailed, "message \(id) failed after its reply: \(failure.message)", channel: .message, seq: id, errorCode: failure.code)
        if message.replyThenError == nil { message.completion(.failure(failure)) }
    }

    /// A link closed: the calls written on it fail (their machines decide which).
    func linkClosed(_ link: Link, _ engine: isolated PairEngine) {
        for id in pending.keys {
            event(id, .linkClosed(linkId: link.id), engine)
        }
    }

    /// Hands an incoming message to the app's handler and answers it on the link through a
    /// ``MessageResponder``: at once or later from wherever the handler answers (``MessageHandler/start``),
    /// else from a task running its ``MessageHandler/handle``, which `spawn` starts.
    func receive(
        _ message: IncomingMessage, on link: Link, spawn: (@escaping @Sendable () async -> Void) -> Void, _ engine: isolated PairEngine
    ) {
        let variant = message.variant
        let responder = MessageResponder(
            message, on: link, limits: engine.configuration.limits, diagnostics: engine.diagnostics, role: engine.role,
            handling: incoming, work: engine.work)
        incoming.started()
        let handler: MessageHandler
        switch self.handler {
        case .some(let installed) where installed.variants.contains(variant):
            guard incoming.current <= engine.configuration.maxConcurrentIncomingMessages else {
                responder.respond(.failure(WCFailure(.deliveryFailed, "the app is busy with \(incoming.current - 1) messages")))
                return
            }
            handler = installed
        default:
            responder.respond(.failure(WCFailure(.deliveryFailed, "the app has no handler for \(variant.rawValue) messages")))
            return
        }
        engine.emit(.messageReceived, "message \(message.id) (\(variant.rawValue)) received", channel: .message, seq: message.id)
        if handler.start?(message, responder) == true { return }
        spawn { responder.respond(await handler.handle(message)) }
    }
}

/// A message call in progress: its machine, and where its one outcome goes.
struct PendingMessage: Sendable {
    let wantsReply: Bool
    /// When the call started (its event's duration).
    let started: ContinuousClock.Instant
    /// The call's reply timeout (a late reply, `lateReply`, is held past it).
    let timeout: Duration
    var completion: @Sendable (MessageChannel.Outcome) -> Void
    /// Where both outcomes of a `replyAndError` go at once, for a caller that answers once.
    var replyThenError: MessageChannel.ReplyThenError?
    var call = MessageCall()
}
