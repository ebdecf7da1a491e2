import Foundation
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// One outgoing live message: the host's call, whose one outcome is reported on the delegate queue.
///
/// The engine reports exactly one outcome per message within its reply timeout (plus a handshake when it
/// must connect first): its ``MessageCall`` machine races the reply, the error frames, the link's loss
/// and the deadline, and completes the call once. So the session starts the call on the engine's thread and
/// reports the outcome the engine hands back; it keeps no timer of its own.
struct MessageSend: Sendable {
    let runtime: SessionRuntime
    /// Where `completion` runs (the session's delegate queue).
    let delegateQueue: DispatchQueue

    /// Sends through the host on its executor and calls `completion` exactly once on the delegate queue.
    func start(_ body: MessageBody, wantsReply: Bool, completion: @escaping @Sendable (Result<MessageBody?, WCError>) -> Void) {
        let channels = runtime.channels
        let delegateQueue = self.delegateQueue
        // Started by a job on the engine's loop, not a task: the engine reports the outcome, with no task
        // waiting for the reply.
        EngineExecutor.shared.socketLoop.execute {
            do throws(WCFailure) {
                try channels.startMessage(body, wantsReply: wantsReply) { outcome in
                    let result = outcome.mapError { WCError($0) }
                    delegateQueue.async { completion(result) }
                }
            } catch {
                delegateQueue.async { completion(.failure(WCError(error))) }
            }
        }
    }

    /// `sendMessage` and `sendMessageData`: checks the session (7003/7004/7016), encodes the message
    /// (7010), sends it, and reports through the app's handlers on the delegate queue; `reply` turns the
    /// counterpart's reply into the handler's type (nil: a reply of the other kind, not reported).
    static func send<Reply>(
        from session: WCSession, _ encode: () throws(WCError) -> MessageBody,
        replyHandler: ((Reply) -> Void)?, errorHandler: ((any Error) -> Void)?,
        reply decode: @escaping @Sendable (MessageBody) -> Reply?
    ) {
        let handlers = Unchecked((reply: replyHandler, error: errorHandler))
        let runtime: SessionRuntime
        let body: MessageBody
        do throws(WCError) {
            runtime = try session.runtimeForSending()
            body = try encode()
        } catch {
            session.callbacks.queue.async { handlers.value.error?(error) }
            return
        }
        MessageSend(runtime: runtime, delegateQueue: session.callbacks.queue).start(body, wantsReply: replyHandler != nil) { result in
            switch result {
            case .success(let reply?): if let value = decode(reply) { handlers.value.reply?(value) }
            case .success(nil): break
            case .failure(let error): handlers.value.error?(error)
            }
        }
    }
}
