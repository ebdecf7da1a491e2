/// Exact JSON for control lines. Foundation's `Codable` would turn `1.0` into an integer inside payloads;
/// these read and write through `JSONValue`, which keeps every number's kind.
extension ControlRequest {
    /// Parses one request line. Errors are 7008 (`invalidParameter`) naming the field, with the request id
    /// when it could be read (`ControlLineError.id`).
    public init(line: String) throws(ControlLineError) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(line)
        } catch {
            throw ControlLineError(id: nil, failure: WCFailure(.invalidParameter, "the request is not JSON: \(error.message)"))
        }
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
        }
    }
}

extension ControlResponse {
    /// The response as one line of canonical JSON (no trailing newline).
    public var line: String { json.canonicalText }

    /// The response as a JSON value.
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

    /// Parses one line the daemon wrote (for clients).
    public init(line: String) throws(WCFailure) {
        guard case .object(let object) = try JSONValue.parse(line) else {
            throw WCFailure(.invalidParameter, "the daemon sent a line that is not a JSON object")
        }
        let id: Int64? = if case .integer(let value) = object["id"] { value } else { nil }
        self.init(id: id)
        if case .bool(let value) = object["ok"] { ok = value }
        result = object["result"]
        if case .string(let value) = object["event"] { event = value }
        data = object["data"]
        if case .object(let body) = object["error"], case .integer(let code) = body["code"] {
            let message: String = if case .string(let text) = body["message"] { text } else { "" }
            error = ControlError(WCFailure(WCErrorCode(rawValue: Int(code)) ?? .genericError, message))
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
