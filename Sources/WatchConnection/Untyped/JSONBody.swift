/// Any JSON value: the body of a request or response whose Swift type this process does not know.
///
/// What bridges use (`wcctl request`/`serve`, the daemons' control socket) to send and answer typed
/// requests by their wire name: the body crosses as the JSON it is, inside the envelope of
/// docs/WatchConnection.md. Integers stay integers (they decode as `integer` when they fit `Int64`).
public enum JSONBody: Codable, Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without a fraction that fits `Int64`.
    case integer(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONBody])
    /// An object.
    case object([String: JSONBody])

    /// Reads any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Bool before numbers: JSONDecoder never reads a number as a Bool, nor a Bool as a number.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONBody].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONBody].self))
        }
    }

    /// Writes the value as it is.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
