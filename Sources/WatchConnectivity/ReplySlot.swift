import Synchronization
import WatchPairCore
import WatchPairWire

/// The answer to one incoming message that wants a reply: set once by the app's `replyHandler` (or by
/// the timeout), awaited by the engine's handler task. Later calls of `replyHandler` are ignored.
///
/// Bound: one waiting continuation.
final class ReplySlot: Sendable {
    typealias Outcome = Result<MessageBody?, WCFailure>

    private struct State {
        var outcome: Outcome?
        var waiter: CheckedContinuation<Outcome, Never>?
    }

    private let state = Mutex(State())

    /// Sets the outcome if none is set yet; returns whether this call set it.
    @discardableResult
    func complete(_ outcome: Outcome) -> Bool {
        let waiter = state.withLock { state -> CheckedContinuation<Outcome, Never>?? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.waiter = nil }
            return .some(state.waiter)
        }
        guard let waiter else { return false }
        waiter?.resume(returning: outcome)
        return true
    }

    /// Waits for the outcome; after `timeout` on `clock` it becomes 7012 (`messageReplyTimedOut`).
    func outcome(timeout: Duration, clock: any Clock<Duration>) async -> Outcome {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                guard (try? await sleep(on: clock, for: timeout)) != nil else { return }
                self.complete(.failure(WCFailure(.messageReplyTimedOut, "the app did not call replyHandler within \(timeout)")))
            }
            let outcome = await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Outcome? in
                    if let outcome = state.outcome { return outcome }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
            group.cancelAll()
            return outcome
        }
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
