/// The control codec for responses and stream events: the one encode/decode pair the daemons, `wcctl`,
/// `wcbench` and the tests use (docs/ControlProtocol.md). Requests: `ControlRequest+JSON.swift`.
///
/// Written as compact canonical JSON through `JSONValue`, so numbers inside results and event data keep
/// their kind (`1.0` stays a double).
extension ControlResponse: ControlLine {
    /// The response as a JSON object: `id` always (null when the request had none), then `ok` with
    /// `result` or `error` for a response, `event` with `data` for a stream event.
    public var json: JSONValue {
        var object: [String: JSONValue] = ["id": id.map { .integer($0) } ?? .null]
        if let ok { object["ok"] = .bool(ok) }
        if let result { object["result"] = result }
        if let error {
            object["error"] = .object(["code": .integer(Int64(error.code)), "name": .string(error.name), "message": .string(error.message)])
        }
        if let event { object["event"] = .string(event) }
        if let data { object["data"] = data }
        return .object(object)
    }

    /// The line is not JSON.
    public static func notJSON(_ failure: WCFailure) -> ControlResponseError {
        ControlResponseError(problem: failure.message)
    }

    /// Reads a response (`ok`) or a stream event (`event`).
    ///
    /// - Throws: ``ControlResponseError`` when the value is not an object, has neither `ok` nor `event`,
    ///   has an ill-typed `id`, `ok` or `event`, or is a failure without an integer error `code`.
    ///   An unknown error code is kept as it is (its `name` as written, or `unknown`).
    public init(json: JSONValue) throws(ControlResponseError) {
        guard case .object(let o) = json else { throw ControlResponseError(problem: "Not a JSON object.") }
        self.init(id: nil)
        switch o["id"] {
        case nil, .null?: break
        case .integer(let id)?: self.id = id
        default: throw ControlResponseError(problem: "\"id\" is not an integer.")
        }
        switch o["ok"] {
        case nil: break
        case .bool(let ok)?: self.ok = ok
        default: throw ControlResponseError(problem: "\"ok\" is not a boolean.")
        }
        switch o["event"] {
        case nil: break
        case .string(let kind)?: event = kind
        default: throw ControlResponseError(problem: "\"event\" is not a string.")
        }
        guard ok != nil || event != nil else {
            throw ControlResponseError(problem: "Neither \"ok\" nor \"event\".")
        }
        result = o["result"]
        data = o["data"]
        if ok == false {
            error = try Self.controlError(o["error"])
        }
    }

    /// The `error` object of a failed response; unknown codes are kept as they are.
    private static func controlError(_ json: JSONValue?) throws(ControlResponseError) -> ControlError {
        guard case .object(let e)? = json, case .integer(let code)? = e["code"] else {
            throw ControlResponseError(problem: "A failed response without an error code.")
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

/// A line from a daemon that is not a response or stream event.
public struct ControlResponseError: Error, Sendable, Hashable {
    /// What is wrong with it.
    public var problem: String

    public init(problem: String) {
        self.problem = problem
    }
}
