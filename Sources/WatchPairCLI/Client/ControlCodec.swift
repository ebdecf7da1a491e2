import WatchPairWire

/// Control-socket lines ⇄ `ControlRequest` / `ControlResponse`, through `JSONValue`.
///
/// `JSONValue.parse` and `canonicalText` are used rather than Foundation's coders so numbers keep their
/// lexical kind (`1.0` stays a double in a payload) and request lines are compact, with sorted keys.
public enum ControlCodec {
    /// The JSON object for a request; absent optional fields are left out.
    public static func json(of request: ControlRequest) -> JSONValue {
        var o: [String: JSONValue] = ["id": .integer(request.id), "op": .string(request.op.rawValue)]
        o["message"] = request.message
        o["data"] = request.data.map(JSONValue.string)
        o["noReply"] = request.noReply.map(JSONValue.bool)
        o["timeout"] = request.timeout.map(JSONValue.double)
        o["userInfo"] = request.userInfo
        o["context"] = request.context
        o["transferId"] = request.transferId.map(JSONValue.string)
        o["received"] = request.received.map(JSONValue.bool)
        o["follow"] = request.follow.map(JSONValue.bool)
        o["channels"] = request.channels.map { .array($0.map(JSONValue.string)) }
        o["handle"] = request.handle.map { .array($0.map(JSONValue.string)) }
        o["autoReply"] = request.autoReply
        o["deliveryId"] = request.deliveryId.map { .integer(Int64(clamping: $0)) }
        o["finished"] = request.finished.map { .array($0.map(JSONValue.string)) }
        o["contextVersion"] = request.contextVersion.map { .integer(Int64(clamping: $0)) }
        o["token"] = request.token.map { .integer(Int64(clamping: $0)) }
        o["reply"] = request.reply
        o["errorCode"] = request.errorCode.map { .integer(Int64($0)) }
        return .object(o)
    }

    /// The request as one line of text, newline included.
    public static func line(of request: ControlRequest) -> [UInt8] {
        Array(json(of: request).canonicalText.utf8) + [UInt8(ascii: "\n")]
    }

    /// A malformed line from the daemon.
    public struct InvalidResponse: Error, Sendable, Hashable {
        /// What is wrong with it.
        public var problem: String
    }

    /// Decodes one line from the daemon: a response (`ok`) or a stream event (`event`).
    ///
    /// - Throws: `InvalidResponse` when the line is not a JSON object, has neither `ok` nor `event`, or
    ///   has an ill-typed `id`, `ok`, `event` or `error`.
    public static func response(fromLine line: [UInt8]) throws(InvalidResponse) -> ControlResponse {
        let json: JSONValue
        do {
            json = try JSONValue.parse(String(decoding: line, as: UTF8.self))
        } catch {
            throw InvalidResponse(problem: error.message)
        }
        guard case .object(let o) = json else { throw InvalidResponse(problem: "Not a JSON object.") }

        var response = ControlResponse(id: nil)
        switch o["id"] {
        case nil, .null?: break
        case .integer(let id)?: response.id = id
        default: throw InvalidResponse(problem: "\"id\" is not an integer.")
        }
        switch o["ok"] {
        case nil: break
        case .bool(let ok)?: response.ok = ok
        default: throw InvalidResponse(problem: "\"ok\" is not a boolean.")
        }
        switch o["event"] {
        case nil: break
        case .string(let kind)?: response.event = kind
        default: throw InvalidResponse(problem: "\"event\" is not a string.")
        }
        guard response.ok != nil || response.event != nil else {
            throw InvalidResponse(problem: "Neither \"ok\" nor \"event\".")
        }
        response.result = o["result"]
        response.data = o["data"]
        if response.ok == false {
            response.error = try controlError(o["error"])
        }
        return response
    }

    /// The `error` object of a failed response; unknown codes are kept as they are.
    private static func controlError(_ json: JSONValue?) throws(InvalidResponse) -> ControlError {
        guard case .object(let e)? = json, case .integer(let code)? = e["code"] else {
            throw InvalidResponse(problem: "A failed response without an error code.")
        }
        let known = WCErrorCode(rawValue: Int(clamping: code))
        var error = ControlError(WCFailure(known ?? .genericError, ""))
        error.code = Int(clamping: code)
        if case .string(let name)? = e["name"] {
            error.name = name
        } else if known == nil {
            error.name = "unknown"
        }
        if case .string(let message)? = e["message"] { error.message = message }
        return error
    }
}
