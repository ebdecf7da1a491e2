import WatchPairCore
import WatchPairWire

// Live messages: sent, and handed to the app's handler as they arrive.
extension AppChannels {
    /// Sends a live message (`sendMessage` / `sendMessageData`): the reply (`wantsReply`), nil, or the
    /// failure (7007 not reachable, 7012 no reply within `timeout`, 7014 not handled; ``PairEngine/sendMessage(_:wantsReply:timeout:)``).
    public func sendMessage(_ body: MessageBody, wantsReply: Bool, timeout: Duration? = nil) async throws(WCFailure) -> MessageBody? {
        try await engine.sendMessage(body, wantsReply: wantsReply, timeout: timeout)
    }

    /// ``sendMessage(_:wantsReply:timeout:)`` with no task waiting, started from the host's loop, where the
    /// engine runs (a control connection's reader, a job queued on the loop), with no hop: refusals throw
    /// at once, otherwise `completion` gets the outcome when it is known, on the loop (it must not block).
    /// Call it only there. `replyThenError` as in ``PairEngine/sendMessage(_:wantsReply:timeout:completion:replyThenError:)``.
    public func startMessage(
        _ body: MessageBody, wantsReply: Bool, timeout: Duration? = nil,
        completion: @escaping @Sendable (Result<MessageBody?, WCFailure>) -> Void,
        replyThenError: (@Sendable (MessageBody?, WCFailure) -> Void)? = nil
    ) throws(WCFailure) {
        let started = engine.assumeIsolated { engine in
            Result { () throws(WCFailure) in
                try engine.sendMessage(
                    body, wantsReply: wantsReply, timeout: timeout, completion: completion, replyThenError: replyThenError)
            }
        }
        try started.get()
    }

    /// Makes `handler` the receiver of live messages (nil: none, so they fail with 7014 at the sender).
    public func setMessageHandler(_ handler: MessageHandler?) async {
        await engine.setMessageHandler(handler)
    }
}
