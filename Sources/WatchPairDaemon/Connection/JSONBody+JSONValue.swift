import WatchConnection
import WatchPairWire

/// The layer's JSON bodies and the control protocol's JSON values are the same values in two types.
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
