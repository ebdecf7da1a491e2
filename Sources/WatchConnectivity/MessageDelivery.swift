import Foundation
import WatchPairCore
import WatchPairWire

extension WCSession {
    /// The engine's handler for live messages: waits until activation has been reported, then calls the
    /// matching delegate method on the delegate queue and answers with its reply.
    ///
    /// A message that arrives while the app is still activating (one that launched it) is held until
    /// `activationDidCompleteWith` has been enqueued, so it is delivered after it. The engine bounds how
    /// many are held (`maxConcurrentIncomingMessages`).
    func messageHandler(runtime: SessionRuntime, activated: AsyncSignal) -> MessageHandler {
        let timeout = runtime.configuration.replyTimeout
        let clock = runtime.clock
        return MessageHandler(variants: Set(MessageVariant.allCases)) { [weak self] incoming in
            await activated.wait(after: 0)
            guard let self, !Task.isCancelled else {
                return .failure(WCFailure(.deliveryFailed, "the app's session stopped"))
            }
            return await self.deliver(incoming, timeout: timeout, clock: clock)
        }
    }

    private func deliver(_ incoming: IncomingMessage, timeout: Duration, clock: any Clock<Duration>) async -> ReplySlot.Outcome {
        let slot = ReplySlot()
        let callback: String
        let handled: Bool
        switch (incoming.body, incoming.wantsReply) {
        case (.dictionary(let message), false):
            callback = "session(_:didReceiveMessage:)"
            handled = await onDelegateQueue { session in
                session.callMessageCallback { $0.session(session, didReceiveMessage: PropertyListBridge.object(from: message)) }
            }
            slot.complete(.success(nil))
        case (.dictionary(let message), true):
            callback = "session(_:didReceiveMessage:replyHandler:)"
            handled = await onDelegateQueue { session in
                session.callMessageCallback { delegate in
                    delegate.session(session, didReceiveMessage: PropertyListBridge.object(from: message)) { reply in
                        do {
                            slot.complete(.success(.dictionary(try PropertyListBridge.plist(from: reply))))
                        } catch {
                            slot.complete(.failure(WCFailure(.messageReplyFailed, "the reply is not a property list: \(error.localizedDescription)")))
                        }
                    }
                }
            }
        case (.data(let data), false):
            callback = "session(_:didReceiveMessageData:)"
            handled = await onDelegateQueue { session in
                session.callMessageCallback { $0.session(session, didReceiveMessageData: data) }
            }
            slot.complete(.success(nil))
        case (.data(let data), true):
            callback = "session(_:didReceiveMessageData:replyHandler:)"
            handled = await onDelegateQueue { session in
                session.callMessageCallback { delegate in
                    delegate.session(session, didReceiveMessageData: data) { reply in slot.complete(.success(.data(reply))) }
                }
            }
        }
        guard handled else {
            return .failure(WCFailure(.deliveryFailed, "the counterpart app does not implement \(callback)"))
        }
        return await slot.outcome(timeout: timeout, clock: clock)
    }
}
