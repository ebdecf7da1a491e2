import Synchronization
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// Executes one incoming message's ``ReplyMachine``: feeds it the events (from the delegate queue, the
/// app's `replyHandler` on any thread, the reply timer, cancellation) and hands its one answer to the
/// engine's handler task waiting in ``wait(delivering:)``, or to the engine's responder.
///
/// Bound: one waiting continuation and at most one timer task, cancelled once answered.
final class ReplySlot: Sendable {
    private struct State {
        var machine = ReplyMachine()
        var outcome: ReplyMachine.Outcome?
        var waiter: CheckedContinuation<ReplyMachine.Outcome, Never>?
        var timer: Task<Void, Never>?
    }

    private let state = Mutex(State())
    /// How long the app has to call `replyHandler` once its callback returned.
    private let timeout: Duration
    private let clock: any Clock<Duration>

    /// Where the answer goes when no task waits in ``wait(delivering:)``.
    private let answer: (@Sendable (ReplyMachine.Outcome) -> Void)?

    /// A slot whose answer is awaited with ``wait(delivering:)``, or, given `answer`, handed to it (once,
    /// on whichever thread answers) with no task waiting.
    init(timeout: Duration, clock: any Clock<Duration>, answer: (@Sendable (ReplyMachine.Outcome) -> Void)? = nil) {
        self.timeout = timeout
        self.clock = clock
        self.answer = answer
    }

    /// Feeds `event` to the machine and does what it says.
    func event(_ event: ReplyMachine.Event) {
        typealias Step = (action: ReplyMachine.Action, waiter: CheckedContinuation<ReplyMachine.Outcome, Never>?, timer: Task<Void, Never>?)
        let (action, waiter, timer) = state.withLock { state -> Step in
            let action = state.machine.event(event)
            guard case .answer(let outcome) = action else { return (action, nil, nil) }
            state.outcome = outcome
            let step: Step = (action, state.waiter, state.timer)
            state.waiter = nil
            state.timer = nil
            return step
        }
        switch action {
        case .none: break
        case .answer(let outcome):
            timer?.cancel()
            waiter?.resume(returning: outcome)
            answer?(outcome)
        case .startTimer: startTimer()
        }
    }

    /// Waits for the answer; `deliver` starts the delivery once the waiter is in place (so no answer
    /// can come before). Cancellation answers 7014, and then nothing is delivered.
    func wait(delivering deliver: @escaping @Sendable () -> Void) async -> ReplyMachine.Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answered = state.withLock { state -> ReplyMachine.Outcome? in
                    if let outcome = state.outcome { return outcome }
                    state.waiter = continuation
                    return nil
                }
                if let answered {
                    continuation.resume(returning: answered)
                } else {
                    deliver()
                }
            }
        } onCancel: {
            event(.cancelled)
        }
    }

    private func startTimer() {
        let (timeout, clock) = (timeout, clock)
        let task = EngineExecutor.shared.spawn { [weak self] in
            guard (try? await sleep(on: clock, for: timeout)) != nil else { return }
            self?.event(.timedOut(timeout))
        }
        // Answered meanwhile (the reply raced the timer's start): the timer is not needed.
        let keep = state.withLock { state -> Bool in
            guard state.machine.state == .waitingForReply else { return false }
            state.timer = task
            return true
        }
        if !keep { task.cancel() }
    }
}

/// Sleeps on an injected clock of any concrete type (opens the existential).
func sleep<C: Clock>(on clock: C, for duration: Duration) async throws where C.Duration == Duration {
    try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
}

/// Carries a value that is not `Sendable` (an app's closures or dictionaries) to the delegate queue,
/// where it is used. Safe because the value is only touched there, after the hand-over.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
