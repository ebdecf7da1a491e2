import WatchPairCore
import WatchPairWire

/// The answer to one incoming live message, as a pure machine: the delegate callback runs on the
/// delegate queue, the app calls `replyHandler` (inside the callback, later from any thread, or never),
/// the reply timeout may pass, the session may stop. Exactly one of these answers the sender; every
/// later event changes nothing (a second `replyHandler` call is ignored).
///
/// The reply timer starts only when the callback returned without answering: an app that replies
/// inside its callback, the common case, costs no timer. ``ReplySlot`` executes the actions.
struct ReplyMachine: Sendable {
    typealias Outcome = Result<MessageBody?, WCFailure>

    enum Event: Sendable {
        /// The app called `replyHandler` (a reply that is not a property list arrives as 7011).
        case replied(Outcome)
        /// The delegate callback returned. `handled`: the app implements it (else 7014); `wantsReply`:
        /// the sender waits for a reply (else the message is answered as delivered).
        case callbackReturned(handled: Bool, wantsReply: Bool, callback: String)
        /// The reply timer started by ``Action/startTimer`` fired after `timeout`.
        case timedOut(Duration)
        /// The engine stopped waiting (the session is stopping).
        case cancelled
    }

    enum Action: Sendable, Equatable {
        /// Nothing to do.
        case none
        /// Answer the sender with this outcome (and stop the reply timer, if one runs).
        case answer(Outcome)
        /// Start the reply timer: the app keeps `replyHandler` for later.
        case startTimer
    }

    enum State: Sendable, Equatable {
        /// The callback has not returned and nothing answered yet.
        case delivering
        /// The callback returned; waiting for `replyHandler` or the timeout.
        case waitingForReply
        /// Answered; everything else is ignored.
        case answered
    }

    private(set) var state = State.delivering

    mutating func event(_ event: Event) -> Action {
        switch (state, event) {
        case (.answered, _):
            return .none
        case (_, .replied(let outcome)):
            state = .answered
            return .answer(outcome)
        case (.delivering, .callbackReturned(handled: false, _, let callback)):
            state = .answered
            return .answer(.failure(WCFailure(.deliveryFailed, "the counterpart app does not implement \(callback)")))
        case (.delivering, .callbackReturned(handled: true, wantsReply: false, _)):
            state = .answered
            return .answer(.success(nil))
        case (.delivering, .callbackReturned(handled: true, wantsReply: true, _)):
            state = .waitingForReply
            return .startTimer
        case (.waitingForReply, .timedOut(let timeout)):
            state = .answered
            return .answer(.failure(WCFailure(.messageReplyTimedOut, "the app did not call replyHandler within \(timeout)")))
        case (_, .cancelled):
            state = .answered
            return .answer(.failure(WCFailure(.deliveryFailed, "the app's session stopped")))
        case (.delivering, .timedOut), (.waitingForReply, .callbackReturned):
            // No timer runs while delivering, and the callback returns once: not reachable.
            return .none
        }
    }
}
