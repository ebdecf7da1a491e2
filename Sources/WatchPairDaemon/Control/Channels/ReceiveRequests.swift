import Foundation
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// `receive`: act as the app. Without `follow`, one snapshot of what is pending; with it, a stream of
/// each item and (with `handle` or an automatic answer) the live messages the client handles.
struct ReceiveOperation: ControlOperation {
    static let name = "receive"

    /// The channels a `receive` can deliver.
    enum Channel: String, CaseIterable {
        case message, userInfo, applicationContext, didFinish
    }

    var follow = false
    /// The channels to deliver; nil: all.
    var channels: Set<Channel>?
    /// The message variants this client answers.
    var handle: Set<MessageVariant>?
    /// Answer every message that wants a reply with this (a dictionary or data).
    var autoReply: MessageBody?
    /// Answer every message that wants a reply with this error.
    var autoError: WCErrorCode?
    /// Seconds to hold each handled message before confirming or answering it.
    var autoDelay: Double?

    /// Whether this client handles live messages.
    var handlesMessages: Bool { handle != nil || autoReply != nil || autoError != nil }

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        while let field = try fields.next() {
            switch field {
            case "follow": follow = try fields.bool() ?? false
            case "channels": channels = try Self.names(&fields, Channel.self, "channels")
            case "handle": handle = try Self.names(&fields, MessageVariant.self, "handle")
            case "autoReply":
                guard let reply = try fields.dictionaryOrData() else { continue }
                autoReply = reply
            case "autoError": autoError = try fields.errorCode()
            case "autoDelay": autoDelay = try fields.delay()
            default: try fields.skip()
            }
        }
        if autoReply != nil, autoError != nil { throw refusal("'autoReply' and 'autoError' exclude each other") }
        if handle != nil || autoReply != nil || autoError != nil || autoDelay != nil, !follow {
            throw refusal("'handle', 'autoReply', 'autoError' and 'autoDelay' need 'follow': true")
        }
    }

    /// A list of `T`'s names, or 7008 listing them and naming the first unknown one.
    private static func names<T: RawRepresentable & CaseIterable & Hashable>(
        _ fields: inout ControlFieldReader, _: T.Type, _ field: String
    ) throws(WCFailure) -> Set<T>? where T.RawValue == String {
        guard let names = try fields.strings() else { return nil }
        var values: Set<T> = []
        for name in names {
            guard let value = T(rawValue: name) else {
                let known = T.allCases.map(\.rawValue).sorted().joined(separator: ", ")
                throw fields.wrong("a list of \(known) (got '\(name)')")
            }
            values.insert(value)
        }
        return values
    }
}

/// `ack`: what the app has taken of a `receive` stream.
struct AckOperation: ControlOperation {
    static let name = "ack"

    /// Every received userInfo up to this `deliveryId`.
    var deliveryId: UInt64?
    /// Transfers whose didFinish the app has seen.
    var finished: [UUID]?
    /// The received context version the app has seen.
    var contextVersion: UInt64?

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        while let field = try fields.next() {
            switch field {
            case "deliveryId": deliveryId = try fields.unsignedInteger()
            case "finished": finished = try fields.transferIds()
            case "contextVersion": contextVersion = try fields.unsignedInteger()
            default: try fields.skip()
            }
        }
        if deliveryId == nil, finished == nil, contextVersion == nil {
            throw refusal("'ack' needs 'deliveryId', 'finished' or 'contextVersion'")
        }
    }
}

/// `answer` (a message shown to a `receive` stream) and `respond` (a request shown to a `serve`
/// stream): a token and exactly one of a reply and an error code.
struct Answer<Reply: Sendable>: Sendable {
    var token: UInt64
    /// The reply, or the error to answer with.
    var outcome: Outcome

    enum Outcome: Sendable {
        case reply(Reply)
        case error(WCErrorCode)

        /// As a `Result`: the reply made by `reply`, or the failure made by `error`.
        func result<Success, Failure: Error>(_ reply: (Reply) -> Success, _ error: (WCErrorCode) -> Failure) -> Result<Success, Failure> {
            switch self {
            case .reply(let value): .success(reply(value))
            case .error(let code): .failure(error(code))
            }
        }
    }

    init(
        _ fields: inout ControlFieldReader, op: String, reply read: (inout ControlFieldReader) throws(WCFailure) -> Reply?
    ) throws(WCFailure) {
        var token: UInt64?
        var reply: Reply?
        var code: WCErrorCode?
        while let field = try fields.next() {
            switch field {
            case "token": token = try fields.unsignedInteger()
            case "reply": reply = try read(&fields)
            case "errorCode": code = try fields.errorCode()
            default: try fields.skip()
            }
        }
        guard let token else { throw ControlFieldReader.missing("token", in: op) }
        self.token = token
        switch (reply, code) {
        case (let reply?, nil): outcome = .reply(reply)
        case (nil, let code?): outcome = .error(code)
        default: throw refusal("'\(op)' needs exactly one of 'reply' and 'errorCode'")
        }
    }
}

/// `answer`: the app's answer to an incoming message delivered to a `receive` stream.
struct AnswerOperation: ControlOperation {
    static let name = "answer"

    var answer: Answer<MessageBody>

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        answer = try Answer(&fields, op: Self.name) { fields throws(WCFailure) in try fields.dictionaryOrData() }
    }
}

extension ControlFieldReader {
    /// A message body: a dictionary, or `{"$data": "<base64>"}` for data messages.
    mutating func dictionaryOrData() throws(WCFailure) -> MessageBody? {
        guard let value = try plist() else { return nil }
        switch try PlistJSON.reply(value, name: "\"\(field)\"") {
        case .data(let data): return .data(data)
        case .dictionary(let dictionary): return .dictionary(dictionary)
        default: preconditionFailure("PlistJSON.reply returns a dictionary or data")
        }
    }
}
