import Foundation
import WatchPairCore
import WatchPairWire

/// The delivery of live messages to the delegate: the engine's message handler, which calls the
/// matching delegate method on the delegate queue and answers with the app's reply, or 7012 when the
/// app has not replied within the reply timeout (``ReplyMachine``).
///
/// One hop each way: the engine hands the message to the delegate queue; the app's `replyHandler` (or the
/// callback's return) answers it from there through the engine's ``MessageResponder``, with no task
/// waiting in between (only a message that arrives before activation was reported waits in a task).
/// No reply timer runs for an app that replies inside its callback.
struct MessageDelivery: Sendable {
    /// How long the app has to call `replyHandler`.
    let timeout: Duration
    /// The clock of that timeout.
    let clock: any Clock<Duration>

    init(runtime: SessionRuntime) {
        timeout = runtime.configuration.replyTimeout
        clock = runtime.clock
    }

    /// The engine's handler for live messages to `session`: waits until activation has been reported,
    /// then delivers.
    ///
    /// A message that arrives while the app is still activating (one that launched it) is held until
    /// `activationDidCompleteWith` has been enqueued, so it is delivered after it. The engine bounds how
    /// many are held (`maxConcurrentIncomingMessages`). Holds the session weakly.
    func handler(for session: WCSession, activated: AsyncSignal) -> MessageHandler {
        MessageHandler(variants: Set(MessageVariant.allCases), start: { [weak session] incoming, responder in
            // Before activation has been reported, the task below holds the message until it has.
            guard activated.generation > 0, let session else { return false }
            let slot = ReplySlot(timeout: timeout, clock: clock) { responder.respond($0) }
            session.callbacks.queue.async { Self.deliver(incoming, to: session, answering: slot) }
            return true
        }) { [weak session] incoming in
            await activated.wait(after: 0)
            guard let session, !Task.isCancelled else {
                return .failure(WCFailure(.deliveryFailed, "the app's session stopped"))
            }
            let slot = ReplySlot(timeout: timeout, clock: clock)
            return await slot.wait {
                session.callbacks.queue.async { Self.deliver(incoming, to: session, answering: slot) }
            }
        }
    }

    /// Calls the delegate method for `incoming` (on the delegate queue) and tells `slot` what happened.
    private static func deliver(_ incoming: IncomingMessage, to session: WCSession, answering slot: ReplySlot) {
        let callback: String
        let handled: Bool
        switch (incoming.body, incoming.wantsReply) {
        case (.dictionary(let message), false):
            callback = "session(_:didReceiveMessage:)"
            handled = session.callbacks.callMessageCallback { $0.session(session, didReceiveMessage: PropertyListBridge.object(from: message)) }
        case (.dictionary(let message), true):
            callback = "session(_:didReceiveMessage:replyHandler:)"
            handled = session.callbacks.callMessageCallback { delegate in
                delegate.session(session, didReceiveMessage: PropertyListBridge.object(from: message)) { reply in
                    do {
                        slot.event(.replied(.success(.dictionary(try PropertyListBridge.plist(from: reply)))))
                    } catch {
                        slot.event(.replied(.failure(WCFailure(.messageReplyFailed, "the reply is not a property list: \(error.localizedDescription)"))))
                    }
                }
            }
        case (.data(let data), false):
            callback = "session(_:didReceiveMessageData:)"
            handled = session.callbacks.callMessageCallback { $0.session(session, didReceiveMessageData: data) }
        case (.data(let data), true):
            callback = "session(_:didReceiveMessageData:replyHandler:)"
            handled = session.callbacks.callMessageCallback { delegate in
                delegate.session(session, didReceiveMessageData: data) { reply in slot.event(.replied(.success(.data(reply)))) }
            }
        }
        slot.event(.callbackReturned(handled: handled, wantsReply: incoming.wantsReply, callback: callback))
    }
}
