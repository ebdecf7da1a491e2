/// JSON values as the control socket and `wcctl` carry them.
///
/// Two ways in and out:
/// - `parse(_:)` and `canonicalText` read and write JSON text themselves. Numbers keep their lexical kind:
///   a number written without fraction or exponent that fits `Int64` is `.integer`, any other is `.double`
///   (so `1.0` stays a double and `canonicalText` writes doubles with a `.` or exponent).
/// - `Codable`, for embedding in other `Codable` types. Foundation's `JSONDecoder` does not expose the
///   lexical form: there, any number that fits `Int64` exactly (including `1.0`) becomes `.integer`, other
///   numbers `.double`; `true`/`false` are always `.bool`, never 1/0.
public enum JSONValue: Sendable, Hashable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer number that fits `Int64`.
    case integer(Int64)
    /// Any other number. Non-finite values have no JSON text: `canonicalText` writes them as `null`.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; JSON text with a repeated key is rejected by `parse(_:)`.
    case object([String: JSONValue])

    /// Decodes any JSON value (see the type's notes on numbers).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            self = .integer(i)
        } else if let d = try? c.decode(Double.self) {
            self = .double(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value; sorted keys only when the encoder sorts them (`canonicalText` always does).
    ///
    /// Non-finite doubles make `JSONEncoder` throw, as for any `Double`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .integer(let i): try c.encode(i)
        case .double(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// Parses one JSON text (RFC 8259; surrounding whitespace allowed, nothing else after the value).
    ///
    /// Nesting is limited to 512 levels, repeated object keys and numbers beyond `Double` range are
    /// rejected.
    /// - Throws: `WCFailure(.invalidParameter, …)` naming the byte offset and the problem.
    public static func parse(_ text: String) throws(WCFailure) -> JSONValue {
        try parse(utf8: text.utf8)
    }

    /// ``parse(_:)`` over UTF-8 bytes, such as a line read from a socket (no `String` made first).
    /// Invalid UTF-8 inside strings is repaired (U+FFFD), as `String(decoding:as:)` does.
    public static func parse(utf8 bytes: some Collection<UInt8>) throws(WCFailure) -> JSONValue {
        var reader = JSONReader(Array(bytes))
        let value = try reader.readValue()
        try reader.expectEnd()
        return value
    }

    /// Compact canonical JSON text: no whitespace, object keys sorted by their UTF-8 bytes, doubles in
    /// Swift's shortest round-trip form (always with a `.` or an exponent), non-finite doubles as `null`.
    public var canonicalText: String {
        String(decoding: canonicalUTF8, as: UTF8.self)
    }

    /// ``canonicalText`` as UTF-8 bytes, ready to write to a socket.
    public var canonicalUTF8: [UInt8] {
        var out: [UInt8] = []
        JSONWriter.write(self, into: &out)
        return out
    }

    /// `value["key"]`: the member of an object, nil for a missing key or a value that is not an object.
    public subscript(_ key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The integer, if this is one.
    public var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}

/// Writes canonical JSON text.
enum JSONWriter {
    static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .integer(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d): out.append(contentsOf: (d.isFinite ? d.description : "null").utf8)
        case .string(let s): write(string: s, into: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (n, element) in a.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            let sorted = o.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (n, (key, element)) in sorted.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                write(string: key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func write(string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escape: one copy instead of a byte at a time.
        if string.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out.append(contentsOf: string.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0..<0x20:
                let digits = String(byte, radix: 16)
                out.append(contentsOf: ("\\u00" + (digits.count == 1 ? "0" : "") + digits).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
