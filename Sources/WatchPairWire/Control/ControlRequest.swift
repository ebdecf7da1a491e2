/// One request as a client writes it: `{"id": …, "op": "…", …fields}` on one line
/// (docs/ControlProtocol.md).
///
/// Knows no operation: a client names the op and sets the fields it documents. The daemons read
/// requests with ``ControlEnvelope`` and each operation's own request type, never with this.
public struct ControlRequest: Sendable, Hashable {
    /// Client-chosen request id, echoed in the response.
    public var id: Int64
    /// The operation's name.
    public var op: String
    /// The operation's fields; `id` and `op` are not among them.
    public var fields: [String: JSONValue]

    /// A request with `id`, `op` and `fields`.
    public init(id: Int64, op: String, fields: [String: JSONValue] = [:]) {
        self.id = id
        self.op = op
        self.fields = fields
    }

    /// A field; setting nil leaves it out of the line.
    public subscript(field: String) -> JSONValue? {
        get { fields[field] }
        set { fields[field] = newValue }
    }
}

extension ControlRequest: ControlLine {
    /// The request as one JSON object.
    public var json: JSONValue {
        var object = fields
        object["id"] = .integer(id)
        object["op"] = .string(op)
        return .object(object)
    }

    /// 7008 with no id: the line is not JSON.
    public static func notJSON(_ failure: WCFailure) -> ControlLineError {
        ControlLineError(id: nil, failure: WCFailure(.invalidParameter, "the request is not JSON: \(failure.message)"))
    }

    /// Reads a request written by a client (tests and tools; the daemons read with ``ControlEnvelope``).
    public init(json value: JSONValue) throws(ControlLineError) {
        let envelope = try ControlEnvelope(line: value.canonicalUTF8)
        guard case .object(var object) = value else { preconditionFailure("the envelope read an object") }
        object["id"] = nil
        object["op"] = nil
        self.init(id: envelope.id, op: envelope.op, fields: object)
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

extension ControlRequest {
    /// Sets `field` to `value`; nil leaves it out.
    public mutating func set(_ field: String, _ value: (some JSONValueConvertible)?) {
        fields[field] = value?.jsonValue
    }
}

/// A value a client writes as a request field.
public protocol JSONValueConvertible {
    /// The value as JSON.
    var jsonValue: JSONValue { get }
}

extension JSONValue: JSONValueConvertible {
    public var jsonValue: JSONValue { self }
}

extension String: JSONValueConvertible {
    public var jsonValue: JSONValue { .string(self) }
}

extension Bool: JSONValueConvertible {
    public var jsonValue: JSONValue { .bool(self) }
}

extension Double: JSONValueConvertible {
    public var jsonValue: JSONValue { .double(self) }
}

extension Int: JSONValueConvertible {
    public var jsonValue: JSONValue { .integer(Int64(self)) }
}

extension Int64: JSONValueConvertible {
    public var jsonValue: JSONValue { .integer(self) }
}

extension UInt64: JSONValueConvertible {
    public var jsonValue: JSONValue { .integer(Int64(clamping: self)) }
}

extension Array: JSONValueConvertible where Element: JSONValueConvertible {
    public var jsonValue: JSONValue { .array(map(\.jsonValue)) }
}
