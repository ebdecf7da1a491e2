import WatchPairWire

extension PairEngine {
    /// Sends a live message (`sendMessage` / `sendMessageData`).
    ///
    /// Fails at once with 7007 when the peer is not reachable. Otherwise exactly one outcome is reported:
    /// the reply (`wantsReply`), nil (delivered, no reply wanted), or an error — 7014 when the receiver has no
    /// handler for this variant or the link drops first, 7012 when nothing arrives within `timeout`
    /// (default `configuration.replyTimeout`), or the receiver's own error. The timeout counts from the
    /// call's start and bounds link set-up and handshake too (``MessageCall``): a peer that accepts but
    /// never completes a handshake gives 7007 within the handshake timeout or `timeout`, the shorter.
    public func sendMessage(
        _ body: MessageBody,
        wantsReply: Bool,
        timeout: Duration? = nil
    ) async throws(WCFailure) -> MessageBody? {
        try await messages.send(body, wantsReply: wantsReply, timeout: timeout, self)
    }
}

extension PairEngine {
    /// ``sendMessage(_:wantsReply:timeout:)`` without a task waiting for the outcome: refusals throw at
    /// once; otherwise `completion` gets the one outcome later, on this actor (so it must not block).
    ///
    /// Under the `replyAndError` quirk `completion` gets the reply and then a 7012, unless
    /// `replyThenError` is given: then that gets both at once (for a caller that can answer only once).
    public func sendMessage(
        _ body: MessageBody,
        wantsReply: Bool,
        timeout: Duration? = nil,
        completion: @escaping @Sendable (Result<MessageBody?, WCFailure>) -> Void,
        replyThenError: (@Sendable (MessageBody?, WCFailure) -> Void)? = nil
    ) throws(WCFailure) {
        try messages.send(
            body, wantsReply: wantsReply, timeout: timeout, self, completion: completion, replyThenError: replyThenError)
    }
}
