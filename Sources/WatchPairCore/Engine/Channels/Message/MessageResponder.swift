import Synchronization
import WatchPairWire

/// Answers one incoming live message from wherever the app's answer comes (the delegate queue, a
/// control client's `answer`, an automatic reply), without a task waiting for it in between.
///
/// Given to ``MessageHandler/start`` by the engine; the first ``respond(_:)`` writes the reply or error
/// frame on the link the message came on, later calls are ignored. Needs nothing of the engine's actor:
/// what it touches (the link, the diagnostics hub, the count of messages being handled) is `Sendable`.
public final class MessageResponder: Sendable {
    private let message: IncomingMessage
    private let link: Link
    private let limits: PayloadLimits
    private let diagnostics: DiagnosticsHub
    private let role: Role
    private let handling: IncomingMessages
    private let work: EngineWork
    private let answered = Atomic<Bool>(false)

    init(
        _ message: IncomingMessage, on link: Link, limits: PayloadLimits, diagnostics: DiagnosticsHub, role: Role,
        handling: IncomingMessages, work: EngineWork
    ) {
        self.message = message
        self.link = link
        self.limits = limits
        self.diagnostics = diagnostics
        self.role = role
        self.handling = handling
        self.work = work
    }

    /// Answers the message: `result` is the reply (nil for a message that wants none) or the failure the
    /// sender gets. Only the first call counts.
    public func respond(_ result: Result<MessageBody?, WCFailure>) {
        guard !answered.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if case .failure(let failure) = result, failure.code == .deliveryFailed {
            diagnostics.emit(DiagnosticEvent(
                .messageFailed, role: role, "message \(message.id) not handled: \(failure.message)", channel: .message,
                seq: message.id, errorCode: failure.code))
        }
        let frame = MessageAnswer.frame(for: message, result: result, limits: limits)
        handling.finished()
        // The common case goes out in this tick; a full socket makes the engine's work wait for room, as a
        // handler's task would.
        if !link.sendNow(frame) {
            let link = self.link
            work.start { try? await link.send(frame) }
        }
    }
}

/// How many incoming messages the app is handling (the engine's cap on them, `status().messagesInFlight`),
/// counted where each is answered, which may be off the engine's actor.
final class IncomingMessages: Sendable {
    private let count = Atomic<Int>(0)
    private let signal: AsyncSignal

    /// `signal` fires whenever the count changes (the engine's message signal).
    init(signal: AsyncSignal) {
        self.signal = signal
    }

    var current: Int { count.load(ordering: .relaxed) }

    func started() {
        count.add(1, ordering: .relaxed)
        signal.fire()
    }

    func finished() {
        count.subtract(1, ordering: .relaxed)
        signal.fire()
    }
}
