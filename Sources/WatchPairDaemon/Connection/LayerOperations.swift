import Foundation
import WatchConnection
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// `request`: a typed request through the app's reliability layer; its response.
struct RequestOperation: ControlOperation {
    static let name = "request"

    /// The request's wire name (docs/WatchConnection.md).
    var requestType: String
    /// The request's body, any JSON, sent as it is.
    var body: JSONValue = .object([:])
    var strategy = DeliveryStrategy.messageWithUserInfoFallback
    var mode = DeliveryMode.queued
    var retry = RetryPolicy.default

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        var requestType: String?
        while let field = try fields.next() {
            switch field {
            case "requestType": requestType = try fields.name()
            case "body": body = try fields.json() ?? body
            case "strategy": strategy = try fields.option(DeliveryStrategy.self) ?? strategy
            case "mode": mode = try fields.option(DeliveryMode.self) ?? mode
            case "retry": retry = try fields.option(RetryPolicy.init(named:), names: RetryPolicy.namedForms) ?? retry
            default: try fields.skip()
            }
        }
        guard let requestType else { throw Self.missing("requestType") }
        self.requestType = requestType
    }
}

/// `serve`: act as the app's handler of one request type (a stream of the requests it answers).
struct ServeOperation: ControlOperation {
    static let name = "serve"

    var requestType: String
    var answering: AppConnection.Answering

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        var requestType: String?
        var answers = false
        var reply: JSONValue?
        var error: WCErrorCode?
        var delay: Double?
        while let field = try fields.next() {
            switch field {
            case "requestType": requestType = try fields.name()
            case "answers": answers = try fields.bool() ?? false
            case "autoReply":
                reply = try fields.json()
                if let reply, case .object = reply {} else if reply != nil { throw fields.wrong("an object") }
            case "autoError": error = try fields.errorCode()
            case "autoDelay": delay = try fields.delay()
            default: try fields.skip()
            }
        }
        guard let requestType else { throw Self.missing("requestType") }
        if reply != nil, error != nil { throw refusal("'autoReply' and 'autoError' exclude each other") }
        if answers, reply != nil || error != nil || delay != nil {
            throw refusal("'answers' excludes 'autoReply', 'autoError' and 'autoDelay'")
        }
        self.requestType = requestType
        answering = answers
            ? .byClient : .automatic(reply: reply.map(JSONBody.init), error: error, delay: delay.map { Duration.seconds($0) })
    }
}

/// `respond`: a `serve` client's answer to the request it was shown with `token`.
struct RespondOperation: ControlOperation {
    static let name = "respond"

    var answer: Answer<JSONValue>

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        answer = try Answer(&fields, op: Self.name) { fields throws(WCFailure) in try fields.json() }
    }
}

/// `health`: the layer's health, connection mode and recent recovery suggestions.
struct HealthOperation: FieldlessControlOperation {
    static let name = "health"
}

/// `queue`: the layer's persisted request queue.
struct QueueOperation: FieldlessControlOperation {
    static let name = "queue"
}

/// `queueCancel`: cancels one queued request (`requestId`), or all (`all`: true).
struct QueueCancelOperation: ControlOperation {
    static let name = "queueCancel"

    /// The request to cancel; nil: all.
    var requestId: UUID?

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        var all = false
        while let field = try fields.next() {
            switch field {
            case "requestId":
                guard let text = try fields.string() else { continue }
                guard let id = UUID(uuidString: text) else { throw fields.wrong("a request id (UUID)") }
                requestId = id
            case "all": all = try fields.bool() ?? false
            default: try fields.skip()
            }
        }
        guard (requestId != nil) != all else { throw refusal("'queueCancel' needs exactly one of 'requestId' and 'all': true") }
    }
}

/// `connect`: switches the layer to active mode (queued requests flush when the peer is reachable).
struct ConnectOperation: FieldlessControlOperation {
    static let name = "connect"
}

/// `disconnect`: switches the layer to passive mode, cancelling every pending request.
struct DisconnectOperation: FieldlessControlOperation {
    static let name = "disconnect"
}

/// The reliability layer's control operations: the daemon's face of `WatchConnection`.
extension AppConnection {
    nonisolated func registerOperations(on router: inout ControlRouter) {
        router.register(RequestOperation.self) { request, _ throws(WCFailure) in try await self.request(request) }
        router.registerStream(ServeOperation.self) { request, call in await self.followServe(request, call: call) }
        router.register(RespondOperation.self) { request, _ throws(WCFailure) in
            let answer = request.answer
            guard await self.respond(token: answer.token, answer.outcome.result(JSONBody.init, AppAnswer.error)) else {
                throw WCFailure(
                    .invalidParameter, "No request waits for an answer with token \(answer.token) (answered, expired, or its client is gone).")
            }
            return .object([:])
        }
        router.register(HealthOperation.self) { _, _ in await self.health() }
        router.register(QueueOperation.self) { _, _ in await self.queue() }
        router.register(QueueCancelOperation.self) { request, _ in await self.cancelQueued(request.requestId) }
        router.register(ConnectOperation.self) { _, _ in await self.setMode(.active) }
        router.register(DisconnectOperation.self) { _, _ in await self.setMode(.passive) }
    }

    /// `request`: sends through the layer and answers `{"response": body}`, or the failure's `WCError`
    /// code (handlerNotRegistered and handlerError are 7014, a timeout 7012, a cancelled, expired or
    /// dropped queued request 7001, each with a sentence naming it).
    private func request(_ request: RequestOperation) async throws(WCFailure) -> JSONValue {
        let outcome = await OnceValue<Result<JSONBody, WCFailure>>.abandoningOnCancel {
            await self.send(request.requestType, body: JSONBody(request.body), strategy: request.strategy, mode: request.mode, retry: request.retry)
        }
        switch outcome {
        case nil: throw WCFailure(.genericError, "the daemon is stopping; the request's outcome is unknown")
        case .failure(let failure)?: throw failure
        case .success(let response)?: return .object(["response": JSONValue(response)])
        }
    }

    /// `serve`: makes this client the handler of `requestType`, answers success, then streams a
    /// `request` event (`{"type", "body"}`, and `"token"` when the client answers with `respond`) for
    /// each request it runs, until the client closes.
    private func followServe(_ request: ServeOperation, call: ControlCall) async {
        let requestType = request.requestType
        let answered = AsyncSignal()
        let writer = call.writer
        let requestId = call.id
        await serve(requestType, clientId: call.connection.id, answering: request.answering) { token, body in
            // The success response comes first on the stream.
            await answered.wait(after: 0)
            var data: [String: JSONValue] = ["type": .string(requestType), "body": JSONValue(body)]
            data["token"] = token.map { ControlJSON.integer($0) }
            return await writer.send(.streamEvent(requestId, "request", .object(data)))
        }
        let sent = await writer.send(.success(call.id))
        answered.fire()
        guard sent else { return }
        await Waiting.any([(call.connection.closing, 0)])
    }
}
