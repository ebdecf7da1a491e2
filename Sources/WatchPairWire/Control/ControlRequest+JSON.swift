/// The control codec for requests: the one encode/decode pair the daemons, `wcctl`, `wcbench` and the
/// tests use (docs/ControlProtocol.md). Responses and stream events: `ControlResponse+JSON.swift`.
///
/// Exact JSON: Foundation's `Codable` would turn `1.0` into an integer inside payloads; these read and
/// write through `JSONValue`, which keeps every number's kind. Lines are compact canonical JSON (sorted
/// keys), absent fields left out.
extension ControlRequest: ControlLine {
    /// The request as a JSON object; absent optional fields are left out.
    public var json: JSONValue {
        var o: [String: JSONValue] = ["id": .integer(id), "op": .string(op.rawValue)]
        o["message"] = message
        o["data"] = data.map(JSONValue.string)
        o["noReply"] = noReply.map(JSONValue.bool)
        o["timeout"] = timeout.map(JSONValue.double)
        o["userInfo"] = userInfo
        o["context"] = context
        o["transferId"] = transferId.map(JSONValue.string)
        o["path"] = path.map(JSONValue.string)
        o["metadata"] = metadata
        o["received"] = received.map(JSONValue.bool)
        o["follow"] = follow.map(JSONValue.bool)
        o["channels"] = channels.map { .array($0.map(JSONValue.string)) }
        o["handle"] = handle.map { .array($0.map(JSONValue.string)) }
        o["autoReply"] = autoReply
        o["deliveryId"] = deliveryId.map { .integer(Int64(clamping: $0)) }
        o["finished"] = finished.map { .array($0.map(JSONValue.string)) }
        o["contextVersion"] = contextVersion.map { .integer(Int64(clamping: $0)) }
        o["token"] = token.map { .integer(Int64(clamping: $0)) }
        o["reply"] = reply
        o["errorCode"] = errorCode.map { .integer(Int64($0)) }
        o["autoDelay"] = autoDelay.map(JSONValue.double)
        o["autoError"] = autoError.map { .integer(Int64($0)) }
        o["condition"] = condition.map { .string($0.rawValue) }
        o["requestType"] = requestType.map(JSONValue.string)
        o["body"] = body
        o["strategy"] = strategy.map(JSONValue.string)
        o["mode"] = mode.map(JSONValue.string)
        o["retry"] = retry.map(JSONValue.string)
        o["answers"] = answers.map(JSONValue.bool)
        o["requestId"] = requestId.map(JSONValue.string)
        o["all"] = all.map(JSONValue.bool)
        o["enabled"] = enabled.map(JSONValue.bool)
        o["key"] = key.map(JSONValue.string)
        o["value"] = value
        o["availability"] = availability.map(JSONValue.string)
        o["policy"] = policy.map(JSONValue.string)
        return .object(o)
    }

    /// 7008 with no id: the line is not JSON.
    public static func notJSON(_ failure: WCFailure) -> ControlLineError {
        ControlLineError(id: nil, failure: WCFailure(.invalidParameter, "the request is not JSON: \(failure.message)"))
    }

    /// Reads a request object. Errors are 7008 (`invalidParameter`) naming the field, with the request id
    /// when it could be read (`ControlLineError.id`). Unknown fields are ignored; `null` reads as absent
    /// for typed fields, and is kept as `.null` in payload fields (the daemon rejects it there).
    public init(json value: JSONValue) throws(ControlLineError) {
        guard case .object(let object) = value else {
            throw ControlLineError(id: nil, failure: WCFailure(.invalidParameter, "the request is not a JSON object"))
        }
        var fields = ControlFields(object: object, id: nil)
        let id: Int64
        do {
            guard let read = try fields.integer("id") else { throw fields.missing("id") }
            id = read
            fields.id = id
            guard let opName = try fields.string("op") else { throw fields.missing("op") }
            guard let op = ControlOperation(rawValue: opName) else {
                let known = ControlOperation.allCases.map(\.rawValue).joined(separator: ", ")
                throw ControlLineError(id: id, failure: WCFailure(.invalidParameter, "unknown op '\(opName)' (known: \(known))"))
            }
            self.init(id: id, op: op)
            message = object["message"]
            data = try fields.string("data")
            noReply = try fields.bool("noReply")
            timeout = try fields.number("timeout")
            userInfo = object["userInfo"]
            context = object["context"]
            transferId = try fields.string("transferId")
            path = try fields.string("path")
            metadata = object["metadata"]
            received = try fields.bool("received")
            follow = try fields.bool("follow")
            channels = try fields.strings("channels")
            handle = try fields.strings("handle")
            autoReply = object["autoReply"]
            deliveryId = try fields.unsignedInteger("deliveryId")
            finished = try fields.strings("finished")
            contextVersion = try fields.unsignedInteger("contextVersion")
            token = try fields.unsignedInteger("token")
            reply = object["reply"]
            errorCode = try fields.integer("errorCode").map { Int($0) }
            autoDelay = try fields.number("autoDelay")
            autoError = try fields.integer("autoError").map { Int($0) }
            requestType = try fields.string("requestType")
            body = object["body"]
            strategy = try fields.string("strategy")
            mode = try fields.string("mode")
            retry = try fields.string("retry")
            answers = try fields.bool("answers")
            requestId = try fields.string("requestId")
            all = try fields.bool("all")
            enabled = try fields.bool("enabled")
            key = try fields.string("key")
            self.value = object["value"]
            availability = try fields.string("availability")
            policy = try fields.string("policy")
            if let name = try fields.string("condition") {
                guard let known = WaitCondition(rawValue: name) else {
                    let names = WaitCondition.allCases.map(\.rawValue).joined(separator: ", ")
                    throw fields.wrongType("condition", "one of \(names)")
                }
                condition = known
            }
        }
    }
}

/// A request line that could not be accepted, with the id to answer to when one was readable.
public struct ControlLineError: Error, Sendable, Hashable {
    /// The request id, if the line had a readable one.
    public var id: Int64?
    /// The error to answer with (7008).
    public var failure: WCFailure

    public init(id: Int64?, failure: WCFailure) {
        self.id = id
        self.failure = failure
    }
}

/// Typed access to a request object's fields; a wrong type is 7008 naming the field.
private struct ControlFields {
    let object: [String: JSONValue]
    var id: Int64?

    func missing(_ name: String) -> ControlLineError {
        ControlLineError(id: id, failure: WCFailure(.invalidParameter, "the request has no '\(name)'"))
    }

    func wrongType(_ name: String, _ expected: String) -> ControlLineError {
        ControlLineError(id: id, failure: WCFailure(.invalidParameter, "'\(name)' must be \(expected)"))
    }

    func integer(_ name: String) throws(ControlLineError) -> Int64? {
        switch object[name] {
        case nil, .null: return nil
        case .integer(let value): return value
        default: throw wrongType(name, "an integer")
        }
    }

    func unsignedInteger(_ name: String) throws(ControlLineError) -> UInt64? {
        guard let value = try integer(name) else { return nil }
        guard value >= 0 else { throw wrongType(name, "a non-negative integer") }
        return UInt64(value)
    }

    func number(_ name: String) throws(ControlLineError) -> Double? {
        switch object[name] {
        case nil, .null: return nil
        case .integer(let value): return Double(value)
        case .double(let value): return value
        default: throw wrongType(name, "a number")
        }
    }

    func string(_ name: String) throws(ControlLineError) -> String? {
        switch object[name] {
        case nil, .null: return nil
        case .string(let value): return value
        default: throw wrongType(name, "a string")
        }
    }

    func bool(_ name: String) throws(ControlLineError) -> Bool? {
        switch object[name] {
        case nil, .null: return nil
        case .bool(let value): return value
        default: throw wrongType(name, "true or false")
        }
    }

    func strings(_ name: String) throws(ControlLineError) -> [String]? {
        switch object[name] {
        case nil, .null: return nil
        case .array(let values):
            var strings: [String] = []
            for value in values {
                guard case .string(let string) = value else { throw wrongType(name, "an array of strings") }
                strings.append(string)
            }
            return strings
        default: throw wrongType(name, "an array of strings")
        }
    }
}
