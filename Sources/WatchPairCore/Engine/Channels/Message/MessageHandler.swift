import WatchPairWire

/// The four ways an app can receive a live message, as Apple's delegate methods tell them apart:
/// `didReceiveMessage`, `didReceiveMessage:replyHandler:`, `didReceiveMessageData`,
/// `didReceiveMessageData:replyHandler:`. A message whose variant the app does not handle gets 7014.
public enum MessageVariant: String, Sendable, Hashable, CaseIterable, Codable {
    case dictionary, dictionaryWithReply, data, dataWithReply

    /// The variant of a message with this body and reply wish.
    public init(body: MessageBody, wantsReply: Bool) {
        switch (body, wantsReply) {
        case (.dictionary, false): self = .dictionary
        case (.dictionary, true): self = .dictionaryWithReply
        case (.data, false): self = .data
        case (.data, true): self = .dataWithReply
        }
    }

    /// Whether the sender waits for the app's reply.
    public var wantsReply: Bool { self == .dictionaryWithReply || self == .dataWithReply }
}

/// A live message handed to the app.
public struct IncomingMessage: Sendable, Hashable {
    /// The message's id on its link (for logs).
    public var id: UInt64
    /// What was sent.
    public var body: MessageBody
    /// Whether the sender waits for a reply.
    public var wantsReply: Bool

    public var variant: MessageVariant { MessageVariant(body: body, wantsReply: wantsReply) }
}

/// The app's logic for live messages: which variants it handles and how it answers.
///
/// `handle` returns the reply body for messages that want one (its kind must match the message's:
/// dictionary for `sendMessage`, data for `sendMessageData`), nil otherwise, or a `WCFailure` to send
/// back as the error.
public struct MessageHandler: Sendable {
    /// The variants the app implements.
    public var variants: Set<MessageVariant>
    /// Called once per message of a handled variant, possibly concurrently.
    public var handle: @Sendable (IncomingMessage) async -> Result<MessageBody?, WCFailure>
    /// Tried first, on the engine, for a handler that answers without a task waiting (an automatic reply, a
    /// delegate queue): true when it took the message and will call the responder exactly once, from
    /// anywhere, now or later; false to have ``handle`` called in a task instead. Must not block.
    public var start: (@Sendable (IncomingMessage, MessageResponder) -> Bool)?

    public init(
        variants: Set<MessageVariant>,
        start: (@Sendable (IncomingMessage, MessageResponder) -> Bool)? = nil,
        handle: @escaping @Sendable (IncomingMessage) async -> Result<MessageBody?, WCFailure>
    ) {
        self.variants = variants
        self.start = start
        self.handle = handle
    }
}
