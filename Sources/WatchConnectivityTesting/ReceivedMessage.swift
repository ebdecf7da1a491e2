import WatchConnectivity

/// A live message the session delivered (`session(_:didReceiveMessage:…)`), with its reply handler if
/// the sender waits for one.
///
/// Answer with ``reply(_:)`` from any task, now or later, as an app calls `replyHandler`: the first
/// answer counts and later ones are ignored; without one the sender gets 7012 after its reply timeout.
/// Two messages are equal when their payloads are, and both or neither expect a reply.
public struct ReceivedMessage: Sendable, Equatable, CustomStringConvertible {
    /// The message.
    public let payload: WCPayload
    private let replyHandler: ReplyHandler<[String: Any]>?

    init(_ payload: WCPayload, replyHandler: (([String: Any]) -> Void)?) {
        self.payload = payload
        self.replyHandler = replyHandler.map(ReplyHandler.init)
    }

    /// Whether the sender waits for a reply (it sent with a reply handler).
    public var expectsReply: Bool { replyHandler != nil }

    /// The message's value under `key`, as the app's delegate gets it.
    public subscript(_ key: String) -> Any? { payload[key] }

    /// Calls the message's reply handler with `reply`; nothing for a message sent without one.
    public func reply(_ reply: WCPayload) {
        replyHandler?.call(reply.dictionary)
    }

    /// Calls the message's reply handler with an app's dictionary (one that is not a property list
    /// reaches the sender as 7011, as from an app).
    public func reply(_ reply: [String: Any]) {
        replyHandler?.call(reply)
    }

    /// Equal payloads, and both or neither expect a reply.
    public static func == (lhs: ReceivedMessage, rhs: ReceivedMessage) -> Bool {
        lhs.payload == rhs.payload && lhs.expectsReply == rhs.expectsReply
    }

    /// The payload, and `(expects reply)` when it does.
    public var description: String { expectsReply ? "\(payload) (expects reply)" : "\(payload)" }
}

/// A data message the session delivered (`session(_:didReceiveMessageData:…)`), with its reply handler
/// if the sender waits for one; answered as ``ReceivedMessage`` is.
public struct ReceivedMessageData: Sendable, Equatable, CustomStringConvertible {
    /// The message's bytes.
    public let data: Data
    private let replyHandler: ReplyHandler<Data>?

    init(_ data: Data, replyHandler: ((Data) -> Void)?) {
        self.data = data
        self.replyHandler = replyHandler.map(ReplyHandler.init)
    }

    /// Whether the sender waits for a reply.
    public var expectsReply: Bool { replyHandler != nil }

    /// Calls the message's reply handler with `reply`; nothing for a message sent without one.
    public func reply(_ reply: Data) {
        replyHandler?.call(reply)
    }

    /// Equal bytes, and both or neither expect a reply.
    public static func == (lhs: ReceivedMessageData, rhs: ReceivedMessageData) -> Bool {
        lhs.data == rhs.data && lhs.expectsReply == rhs.expectsReply
    }

    /// `N bytes`, and `(expects reply)` when it does.
    public var description: String { expectsReply ? "\(data.count) bytes (expects reply)" : "\(data.count) bytes" }
}

/// The session's `replyHandler`, carried to the test's task.
///
/// `@unchecked Sendable`: the session documents `replyHandler` as callable from any thread, once or
/// more (later calls are ignored), and a handler is never changed after it is made.
final class ReplyHandler<Reply>: @unchecked Sendable {
    private let handler: (Reply) -> Void

    init(_ handler: @escaping (Reply) -> Void) {
        self.handler = handler
    }

    func call(_ reply: Reply) {
        handler(reply)
    }
}
