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
        var slot: OnceValue<Result<MessageBody?, WCFailure>>
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

    init(channels: AppChannels, clock: any Clock<Duration>) {
        self.channels = channels
        self.clock = clock
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
            let orphans = tokens.compactMap { state.pending.removeValue(forKey: $0)?.slot }
            let changed = state.registrations.count != before
            if changed { state.generation += 1 }
            return (orphans, changed)
        }
        for slot in orphans {
            slot.complete(.failure(WCFailure(.deliveryFailed, "the app's message handler went away before answering")))
        }
        if changed {
            await installHandler()
            self.changed.fire()
        }
    }

    /// Completes message `token` with `result`; false when the token is unknown (answered, expired, or never issued).
    func answer(token: UInt64, _ result: Result<MessageBody?, WCFailure>) -> Bool {
        guard let pending = state.withLock({ $0.pending.removeValue(forKey: token) }) else { return false }
        pending.slot.complete(result)
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

    /// The engine's first try: a message its client answers automatically (no delay) or that wants no
    /// reply is shown to the client and answered at once; false when it must wait (for the client's
    /// `answer`, a delay, the socket, the layer), so ``handle(_:)`` takes it.
    func start(_ message: IncomingMessage, _ responder: MessageResponder) -> Bool {
        if case .dictionary(let dictionary) = message.body, dictionary[WireEnvelope.key] != nil, state.withLock({ $0.layer != nil }) {
            return false
        }
        let variant = message.variant
        let picked = state.withLock { state -> (Registration, UInt64)? in
            guard let registration = state.registrations.last(where: { $0.variants.contains(variant) }),
                registration.autoDelay == nil,
                !message.wantsReply || registration.autoError != nil || registration.autoReply != nil
            else { return nil }
            state.nextToken += 1
            return (registration, state.nextToken)
        }
        guard let (registration, token) = picked, registration.deliverNow(token, message) else { return false }
        if !message.wantsReply {
            responder.respond(.success(nil))
        } else {
            responder.respond(registration.autoError.map { .failure($0) } ?? registration.autoReply.map { .success($0) } ?? .success(nil))
        }
        return true
    }

    /// The engine's handler: delivers `message` to the newest matching client and waits for its answer.
    func handle(_ message: IncomingMessage) async -> Result<MessageBody?, WCFailure> {
        if case .dictionary(let dictionary) = message.body, dictionary[WireEnvelope.key] != nil,
            let layer = state.withLock({ $0.layer })
        {
            return await layer(message)
        }
        let variant = message.variant
        let picked = state.withLock { state -> (Registration, UInt64)? in
            guard let registration = state.registrations.last(where: { $0.variants.contains(variant) }) else { return nil }
            state.nextToken += 1
            return (registration, state.nextToken)
        }
        guard let (registration, token) = picked else {
            return .failure(WCFailure(.deliveryFailed, "the app has no handler for \(variant.rawValue) messages"))
        }
        let notDelivered = WCFailure(.deliveryFailed, "the app's message handler went away")
        let automatic: Result<MessageBody?, WCFailure>? =
            registration.autoError.map { .failure($0) } ?? registration.autoReply.map { .success($0) }
        if !message.wantsReply || automatic != nil {
            guard await registration.deliver(token, message) else { return .failure(notDelivered) }
            if let delay = registration.autoDelay {
                guard (try? await Waiting.sleep(on: clock, for: delay)) != nil else {
                    return .failure(WCFailure(.deliveryFailed, "the daemon is stopping"))
                }
            }
            return message.wantsReply ? automatic ?? .success(nil) : .success(nil)
        }
        let slot = OnceValue<Result<MessageBody?, WCFailure>>()
        let admitted = state.withLock { state -> Bool in
            guard state.pending.count < Self.maximumPendingAnswers else { return false }
            state.pending[token] = Pending(clientId: registration.clientId, slot: slot)
            return true
        }
        guard admitted else {
            return .failure(WCFailure(.deliveryFailed, "too many messages wait for the app's answer"))
        }
        // The token is registered before the client sees it, so an immediate answer finds it.
        guard await registration.deliver(token, message) else {
            _ = answer(token: token, .failure(notDelivered))
            return await slot.value
        }
        let clock = self.clock
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                let expired = (try? await Waiting.sleep(on: clock, for: Self.answerTimeout)) != nil
                // Only completes the slot if nothing else did (the entry is removed by whoever completes it).
                _ = self.answer(
                    token: token,
                    .failure(expired
                        ? WCFailure(.messageReplyTimedOut, "the app did not answer within \(Self.answerTimeout)")
                        : WCFailure(.deliveryFailed, "the daemon is stopping")))
            }
            let result = await slot.value
            group.cancelAll()
            return result
        }
    }
}

