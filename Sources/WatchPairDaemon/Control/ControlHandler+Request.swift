import WatchConnection
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// `request` and `serve`: typed requests through the daemon's reliability layer (``AppConnection``).
extension ControlHandler {
    /// `request`: sends through the layer and answers `{"response": body}`, or the failure's `WCError`
    /// code (handlerNotRegistered and handlerError are 7014, a timeout 7012, a cancelled, expired or
    /// dropped queued request 7001, each with a sentence naming it).
    func request(_ request: ControlRequest) async throws(WCFailure) -> JSONValue {
        let strategy = try Self.option(request.strategy, "strategy", default: .messageWithUserInfoFallback) {
            DeliveryStrategy(rawValue: $0)
        } names: { DeliveryStrategy.allCases.map(\.rawValue).joined(separator: ", ") }
        let mode = try Self.option(request.mode, "mode", default: .queued) { DeliveryMode(rawValue: $0) } names: { "queued, immediate" }
        let retry = try Self.option(request.retry, "retry", default: .default) { RetryPolicy(named: $0) } names: { RetryPolicy.namedForms }
        // ControlRequestParser checked that it is there.
        let requestType = request.requestType ?? ""
        let body = JSONBody(request.body ?? .object([:]))
        let connection = self.connection
        let outcome = await OnceValue<Result<JSONBody, WCFailure>>.abandoningOnCancel {
            await connection.send(requestType, body: body, strategy: strategy, mode: mode, retry: retry)
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
    func followServe(_ request: ControlRequest, on connection: ControlConnection) async {
        // ControlRequestParser checked the fields.
        let requestType = request.requestType ?? ""
        let answering: AppConnection.Answering = request.answers == true
            ? .byClient
            : .automatic(
                reply: request.autoReply.map(JSONBody.init), error: request.autoError.flatMap(WCErrorCode.init(rawValue:)),
                delay: request.autoDelay.map { Duration.seconds($0) })
        let answered = AsyncSignal()
        let writer = connection.writer
        let requestId = request.id
        await self.connection.serve(requestType, clientId: connection.id, answering: answering) { token, body in
            // The success response comes first on the stream.
            await answered.wait(after: 0)
            var data: [String: JSONValue] = ["type": .string(requestType), "body": JSONValue(body)]
            data["token"] = token.map { ControlJSON.integer($0) }
            return await writer.send(.streamEvent(requestId, "request", .object(data)))
        }
        let sent = await writer.send(.success(request.id))
        answered.fire()
        guard sent else { return }
        await Waiting.any([(connection.closing, 0)])
    }

    /// `respond`: a `serve` client's answer to the request it was shown with `token`.
    func respond(_ request: ControlRequest) async throws(WCFailure) -> JSONValue {
        // ControlRequestParser checked that exactly one of reply and errorCode is there.
        let answer: Result<JSONBody, AppAnswer> = if let code = request.errorCode.flatMap(WCErrorCode.init(rawValue:)) {
            .failure(.error(code))
        } else {
            .success(JSONBody(request.reply ?? .object([:])))
        }
        guard await connection.respond(token: request.token ?? 0, answer) else {
            throw WCFailure(.invalidParameter, "No request waits for an answer with token \(request.token ?? 0) (answered, expired, or its client is gone).")
        }
        return .object([:])
    }

    /// A named option of `request`, its default when absent, or 7008 listing the names.
    private static func option<T>(
        _ value: String?, _ field: String, default fallback: T, parse: (String) -> T?, names: () -> String
    ) throws(WCFailure) -> T {
        guard let value else { return fallback }
        guard let parsed = parse(value) else {
            throw WCFailure(.invalidParameter, "'\(field)' must be one of \(names()), not '\(value)'")
        }
        return parsed
    }
}

extension JSONBody {
    /// The same JSON value.
    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .integer(let value): self = .integer(value)
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .array(let elements): self = .array(elements.map(JSONBody.init))
        case .object(let members): self = .object(members.mapValues(JSONBody.init))
        }
    }
}

extension JSONValue {
    /// The same JSON value.
    init(_ body: JSONBody) {
        switch body {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .integer(let value): self = .integer(value)
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .array(let elements): self = .array(elements.map(JSONValue.init))
        case .object(let members): self = .object(members.mapValues(JSONValue.init))
        }
    }
}
