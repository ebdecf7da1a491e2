import WatchPairWire

/// The receiving side of a live message, as a pure decision: the frame that answers it.
///
/// A message without a reply wish is confirmed with an empty reply (the sender's call then ends with
/// nil). A reply must have the message's kind (dictionary for `sendMessage`, data for
/// `sendMessageData`) and fit the message limit, else the sender gets 7011; no reply body counts as an
/// empty one of the right kind. The app's error is passed on as it is.
enum MessageAnswer {
    static func frame(for message: IncomingMessage, result: Result<MessageBody?, WCFailure>, limits: PayloadLimits) -> Frame {
        switch result {
        case .failure(let failure):
            return .error(relatesTo: message.id, code: failure.code, reason: failure.message)
        case .success(let reply):
            guard message.wantsReply else {
                return .reply(id: message.id, body: .dictionary([:]))
            }
            let empty: MessageBody = if case .data = message.body { .data(.init()) } else { .dictionary([:]) }
            let body = reply ?? empty
            switch (message.body, body) {
            case (.dictionary, .dictionary), (.data, .data):
                break
            default:
                return .error(relatesTo: message.id, code: .messageReplyFailed, reason: "the reply's kind does not match the message's")
            }
            do {
                try limits.check(body)
            } catch {
                return .error(relatesTo: message.id, code: .messageReplyFailed, reason: "reply refused: \(error.message)")
            }
            return .reply(id: message.id, body: body)
        }
    }
}
