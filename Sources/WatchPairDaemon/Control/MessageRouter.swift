import Synchronization
import WatchConnection
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// The app's message handler as control clients provide it: routes each incoming live message to the
/// `receive --follow` client that attached last for its variant, and carries the client's `answer` back.
///
/// While at least one client is attached, the engine has a `MessageHandler` for the union of their
/// variants; with none, `setMessageHandler(nil)`, so senders get 7014 as on Apple's devices. Once the
/// reliability layer runs (``AppConnection``), dictionary messages carrying its key go to it instead. A message
/// that wants a reply gets a token; the owning client answers it (`answer`), or its `autoReply` (or
/// `autoError`) answers it, after `autoDelay` when one is set. A client that goes away fails its
/// unanswered messages with 7014.
///
/// Bounds: at most ``maximumPendingAnswers`` messages wait for an answer at once (more get 7014 at once;
/// the engine also caps concurrent incoming messages per link); an unanswered message fails with 7012
/// after ``answerTimeout`` on the daemon's clock.
final class MessageRouter: Sendable {
    /// A client acting as the message handler.
    struct Registration: Sendable {
        /// The control connection.
        var clientId: UInt64
        /// The variants it handles.
        var variants: Set<MessageVariant>
        /// The reply sent for every message that wants one, instead of waiting for `answer`.
        var autoReply: MessageBody?
        /// The error every message that wants a reply gets instead (an app-level fault); wins over `autoReply`.
        var autoError: WCFailure?
        /// How long the app "takes" for each message it confirms or answers automatically (an app-level
        /// fault: longer than the sender's timeout gives it 7012).
        var autoDelay: Duration?
        /// Writes a `message` stream event to the client without waiting: false, writing nothing, when it
        /// cannot now (the stream's first response not written yet, the socket full, the client gone).
        var deliverNow: @Sendable (_ token: UInt64, _ message: IncomingMessage) -> Bool
        /// Writes a `message` stream event to the client; false when the connection is gone.
        var deliver: @Sendable (_ token: UInt64, _ message: IncomingMessage) async -> Bool
    }

    /// Most messages waiting for an `answer` at once.
    static let maximumPendingAnswers = 1024
    /// How long a message waits for its `answer` (the sender gives up after its own reply timeout anyway).
    static let answerTimeout: Duration = .seconds(300)

    private struct Pending {
        var clientId: UInt64
        /// Hands the answer on: to the engine's responder, or to the task waiting for it.
        var complete: @Sendable (Result<MessageBody?, WCFailure>) -> Void
    }

    private struct State {
        /// Attached handlers, oldest first: the last matching one gets a message.
        var registrations: [Registration] = []
        var pending: [UInt64: Pending] = [:]
        var nextToken: UInt64 = 0
        /// Bumped on every attach/detach, so concurrent re-installs converge on the newest set.
        var generation: UInt64 = 0
        /// The reliability layer's handler of messages carrying its key (``AppConnection``), once started.
        var layer: (@Sendable (IncomingMessage) async -> Result<MessageBody?, WCFailure>)?
    }

    private let state = Mutex(State())
    private let channels: AppChannels
    /// Fires after a client attached or detached and the engine's handler was installed accordingly
    /// (`wait handler`).
    let changed = AsyncSignal()
    private let clock: any Clock<Duration>
    /// Every waiting message's answer deadline, on one sleeper (``expireAnswers()``).
    private let answerDeadlines: DeadlineQueue<UInt64>

    init(channels: AppChannels, clock: any Clock<Duration>) {
        self.channels = channels
        self.clock = clock
        self.answerDeadlines = DeadlineQueue(clock: clock)
    }

    /// Fails each message whose client has not answered within ``answerTimeout`` with 7012, until the
    /// calling task is cancelled (run by the daemon's face service, ``AppConnection``).
    func expireAnswers() async {
        await answerDeadlines.run(isLive: { token in self.state.withLock { $0.pending[token] != nil } }) { token, timeout in
            _ = self.answer(token: token, .failure(WCFailure(.messageReplyTimedOut, "the app did not answer within \(timeout)")))
        }
    }

    /// Makes `registration`'s client the newest handler for its variants.
    func attach(_ registration: Registration) async {
        state.withLock { state in
            state.registrations.removeAll { $0.clientId == registration.clientId }
            state.registrations.append(registration)
            state.generation += 1
        }
        await installHandler()
        changed.fire()
    }

    /// Removes a client's registration and fails its unanswered messages with 7014.
    func detach(clientId: UInt64) async {
        let (orphans, changed) = state.withLock { state in
            let before = state.registrations.count
            state.registrations.removeAll { $0.clientId == clientId }
            let tokens = state.pending.filter { $0.value.clientId == clientId }.map(\.key)
            let orphans = tokens.compactMap { state.pending.removeValue(forKey: $0)?.complete }
            let changed = state.registrations.count != before
            if changed { state.generation += 1 }
            return (orphans, changed)
        }
        for orphan in orphans {
            orphan(.failure(WCFailure(.deliveryFailed, "the app's message handler went away before answering")))
        }
        if changed {
            await installHandler()
            self.changed.fire()
        }
    }

    /// Completes message `token` with `result`; false when the token is unknown (answered, expired, or never issued).
    func answer(token: UInt64, _ result: Result<MessageBody?, WCFailure>) -> Bool {
        guard let pending = state.withLock({ $0.pending.removeValue(forKey: token) }) else { return false }
        pending.complete(result)
        return true
    }

    /// Hands every dictionary message carrying the layer's key (`watchConnection`) to `layer` from now
    /// on (nil: no more, the layer stopped); the layer handles dictionary messages even while no
    /// `receive` client is attached.
    func setLayer(_ layer: (@Sendable (IncomingMessage) async -> Result<MessageBody?, WCFailure>)?) async {
        state.withLock { state in
            state.layer = layer
            state.generation += 1
        }
        await installHandler()
    }

    /// How many clients are attached as handlers.
    var handlerCount: Int { state.withLock { $0.registrations.count } }

    /// Installs the union of the attached variants (nil when none), repeating until no attach or detach
    /// happened meanwhile, so the engine ends with the newest set whatever order the calls ran in.
    private func installHandler() async {
        while true {
            let (variants, generation) = state.withLock { state in
                let layerVariants: Set<MessageVariant> = state.layer == nil ? [] : [.dictionary, .dictionaryWithReply]
                return (state.registrations.reduce(into: layerVariants) { $0.formUnion($1.variants) }, state.generation)
            }
            if variants.isEmpty {
                await channels.setMessageHandler(nil)
            } else {
                await channels.setMessageHandler(
                    MessageHandler(variants: variants, start: { [self] message, responder in self.start(message, responder) }) { [self] message in
                        await self.handle(message)
                    })
            }
            if state.withLock({ $0.generation }) == generation { return }
        }
    }

    /// The engine's first try, with no task waiting: the message is shown to its client at once and
    /// answered through `responder`, automatically (`autoReply`, `autoError`, no reply wanted) or when the
    /// client's `answer` comes (or its deadline passes). False when it must wait (an `autoDelay`, the
    /// socket, the layer, too many waiting), so ``handle(_:)`` takes it.
    func start(_ message: IncomingMessage, _ responder: MessageResponder) -> Bool {
        guard layer(for: message) == nil, let (registration, token) = pick(message), registration.autoDelay == nil else { return false }
        if let automatic = Self.automaticAnswer(message, registration) {
            guard registration.deliverNow(token, message) else { return false }
            responder.respond(automatic)
            return true
        }
        // Registered (and its deadline armed) before the client sees the token, so an immediate answer
        // finds it and the deadline counts from the showing.
        guard admit(token, clientId: registration.clientId, complete: { responder.respond($0) }) else { return false }
        answerDeadlines.add(token, timeout: Self.answerTimeout)
        guard registration.deliverNow(token, message) else {
            // Never shown: the task path shows it (with a token of its own); the deadline finds it gone.
            state.withLock { _ = $0.pending.removeValue(forKey: token) }
            return false
        }
        return true
    }

    /// The reliability layer's handler when `message` is the layer's (a dictionary carrying its key, while
    /// the layer runs); nil when a control client handles it.
    private func layer(for message: IncomingMessage) -> (@Sendable (IncomingMessage) async -> Result<MessageBody?, WCFailure>)? {
        guard case .dictionary(let dictionary) = message.body, dictionary[WireEnvelope.key] != nil else { return nil }
        return state.withLock { $0.layer }
    }

    /// The newest client handling `message`'s variant, and a new token.
    private func pick(_ message: IncomingMessage) -> (Registration, UInt64)? {
        let variant = message.variant
        return state.withLock { state -> (Registration, UInt64)? in
            guard let registration = state.registrations.last(where: { $0.variants.contains(variant) }) else { return nil }
            state.nextToken += 1
            return (registration, state.nextToken)
        }
    }

    /// The answer `registration` gives `message` without its client: for a message that wants no reply,
    /// or a client with `autoReply`/`autoError`; nil when the client answers itself.
    private static func automaticAnswer(_ message: IncomingMessage, _ registration: Registration) -> Result<MessageBody?, WCFailure>? {
        guard message.wantsReply else { return .success(nil) }
        return registration.autoError.map { .failure($0) } ?? registration.autoReply.map { .success($0) }
    }

    /// Records a message waiting for its client's `answer`; false when too many wait already.
    private func admit(_ token: UInt64, clientId: UInt64, complete: @escaping @Sendable (Result<MessageBody?, WCFailure>) -> Void) -> Bool {
        state.withLock { state -> Bool in
            guard state.pending.count < Self.maximumPendingAnswers else { return false }
            state.pending[token] = Pending(clientId: clientId, complete: complete)
            return true
        }
    }

    /// The engine's handler: delivers `message` to the newest matching client and waits for its answer.
    func handle(_ message: IncomingMessage) async -> Result<MessageBody?, WCFailure> {
        if let layer = layer(for: message) { return await layer(message) }
        guard let (registration, token) = pick(message) else {
            return .failure(WCFailure(.deliveryFailed, "the app has no handler for \(message.variant.rawValue) messages"))
        }
        let notDelivered = WCFailure(.deliveryFailed, "the app's message handler went away")
        if let automatic = Self.automaticAnswer(message, registration) {
            guard await registration.deliver(token, message) else { return .failure(notDelivered) }
            if let delay = registration.autoDelay {
                guard (try? await Waiting.sleep(on: clock, for: delay)) != nil else {
                    return .failure(WCFailure(.deliveryFailed, "the daemon is stopping"))
                }
            }
            return automatic
        }
        let slot = OnceValue<Result<MessageBody?, WCFailure>>()
        guard admit(token, clientId: registration.clientId, complete: { slot.complete($0) }) else {
            return .failure(WCFailure(.deliveryFailed, "too many messages wait for the app's answer"))
        }
        // The token is registered (its deadline armed) before the client sees it, so an immediate answer finds it.
        answerDeadlines.add(token, timeout: Self.answerTimeout)
        guard await registration.deliver(token, message) else {
            _ = answer(token: token, .failure(notDelivered))
            return await slot.value
        }
        // Only completes the slot if nothing else did (the entry is removed by whoever completes it).
        return await withTaskCancellationHandler {
            await slot.value
        } onCancel: {
            _ = self.answer(token: token, .failure(WCFailure(.deliveryFailed, "the daemon is stopping")))
        }
    }
}
