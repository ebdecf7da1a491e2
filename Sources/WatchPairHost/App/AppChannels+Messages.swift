import WatchPairCore
import WatchPairWire

// Live messages: sent, and handed to the app's handler as they arrive.
extension AppChannels {
    /// Sends a live message (`sendMessage` / `sendMessageData`): the reply (`wantsReply`), nil, or the
    /// failure (7007 not reachable, 7012 no reply within `timeout`, 7014 not handled; ``PairEngine/sendMessage(_:wantsReply:timeout:)``).
    public func sendMessage(_ body: MessageBody, wantsReply: Bool, timeout: Duration? = nil) async throws(WCFailure) -> MessageBody? {
        try await engine.sendMessage(body, wantsReply: wantsReply, timeout: timeout)
    }

    /// ``sendMessage(_:wantsReply:timeout:)`` with no task waiting: refusals throw at once, otherwise
    /// `completion` gets the outcome when it is known, on the engine (it must not block).
    public func sendMessage(
        _ body: MessageBody, wantsReply: Bool, timeout: Duration? = nil,
        completion: @escaping @Sendable (Result<MessageBody?, WCFailure>) -> Void,
        replyThenError: (@Sendable (MessageBody?, WCFailure) -> Void)? = nil
    ) async throws(WCFailure) {
        try await engine.sendMessage(
            body, wantsReply: wantsReply, timeout: timeout, completion: completion, replyThenError: replyThenError)
    }

    /// Makes `handler` the receiver of live messages (nil: none, so they fail with 7014 at the sender).
    public func setMessageHandler(_ handler: MessageHandler?) async {
        await engine.setMessageHandler(handler)
    }
}
