import Foundation
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// `send`: `sendMessage` with a dictionary.
struct SendOperation: ControlOperation {
    typealias Result = SendResult
    static let name = "send"

    var send: MessageSend

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        send = try MessageSend(&fields, op: Self.name, bodyField: "message") { fields throws(WCFailure) in
            try fields.dictionary().map(MessageBody.dictionary)
        }
    }
}

/// `sendData`: `sendMessageData` with bytes (base64).
struct SendDataOperation: ControlOperation {
    typealias Result = SendResult
    static let name = "sendData"

    var send: MessageSend

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        send = try MessageSend(&fields, op: Self.name, bodyField: "data") { fields throws(WCFailure) in
            guard let text = try fields.string() else { return nil }
            guard let bytes = Data(base64Encoded: text) else { throw fields.wrong("base64") }
            return .data(bytes)
        }
    }
}

/// What `send` and `sendData` read: the body, `noReply` and `timeout`.
struct MessageSend: Sendable {
    var body: MessageBody
    /// True for a message without a reply handler.
    var noReply = false
    /// Seconds to wait for the reply; nil: the daemon's reply timeout.
    var timeout: Double?

    init(
        _ fields: inout ControlFieldReader, op: String, bodyField: String,
        body read: (inout ControlFieldReader) throws(WCFailure) -> MessageBody?
    ) throws(WCFailure) {
        var body: MessageBody?
        while let field = try fields.next() {
            switch field {
            case bodyField: body = try read(&fields)
            case "noReply": noReply = try fields.bool() ?? false
            case "timeout": timeout = try fields.timeout()
            default: try fields.skip()
            }
        }
        guard let body else { throw ControlFieldReader.missing(bodyField, in: op) }
        self.body = body
    }
}

/// The result of `send`/`sendData`: `{}`, or `{"reply": …}`, and under the `replyAndError` quirk the
/// error that followed the reply (``ControlLines/sendResult(_:reply:errorAfterReply:)``).
struct SendResult: ControlResult {
    var reply: MessageBody?
    var errorAfterReply: WCFailure?

    func responseLine(id: Int64) -> [UInt8] {
        ControlLines.sendResult(id, reply: reply, errorAfterReply: errorAfterReply)
    }
}

/// The live message channel's operations.
struct SendOperations {
    let channels: AppChannels

    func register(on router: inout ControlRouter) {
        router.registerStarted(SendOperation.self) { request, _, respond in send(request.send, respond) }
        router.registerStarted(SendDataOperation.self) { request, _, respond in send(request.send, respond) }
    }

    /// Started on the host's loop, not awaited: the outcome is written when the engine has it, and no task
    /// waits for the reply meanwhile. A daemon that stops first tells the client the outcome is unknown
    /// (``ControlConnection``).
    private func send(_ request: MessageSend, _ respond: @escaping @Sendable (Result<SendResult, WCFailure>) -> Void) {
        let (body, noReply, timeout) = (request.body, request.noReply, request.timeout.map { Duration.seconds($0) })
        do throws(WCFailure) {
            try channels.startMessage(body, wantsReply: !noReply, timeout: timeout) { outcome in
                respond(outcome.map { SendResult(reply: $0) })
            } replyThenError: { reply, failure in
                respond(.success(SendResult(reply: reply, errorAfterReply: failure)))
            }
        } catch {
            respond(.failure(error))
        }
    }
}
