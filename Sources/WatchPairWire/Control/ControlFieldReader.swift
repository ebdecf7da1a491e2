/// An operation's fields, read straight from its request line (``ControlEnvelope/fields()``).
///
/// An operation's request type walks the fields with ``next()`` and reads each one it knows with the
/// typed reads, or passes over it with ``skip()``; fields it does not read are ignored, so older
/// daemons accept newer clients' extra hints. A `null` reads as absent. A value of the wrong type is
/// 7008 naming the field (`'timeout' must be a number`); ``missing(_:in:)`` and ``wrong(_:)`` make the
/// operation's own refusals in the same words. The envelope checked the line's syntax, so the reads
/// meet only the types.
public struct ControlFieldReader {
    /// The request's id.
    public let id: Int64
    private var reader: JSONReader
    private var started = false
    /// The field whose value is to be read next.
    public private(set) var field = ""

    init(id: Int64, bytes: [UInt8]) {
        self.id = id
        self.reader = JSONReader(bytes)
    }

    /// The next field's name (other than `id` and `op`), or nil after the last; read or skip its value next.
    public mutating func next() throws(WCFailure) -> String? {
        if !started {
            started = true
            try reader.beginObject()
        }
        while let key = try reader.nextKey() {
            guard key == "id" || key == "op" else {
                field = key
                return key
            }
            try reader.skipValue()
        }
        return nil
    }

    /// Passes over the value.
    public mutating func skip() throws(WCFailure) {
        try reader.skipValue()
    }

    /// A string.
    public mutating func string() throws(WCFailure) -> String? {
        try read(.string, "a string") { reader throws(WCFailure) in try reader.readString() }
    }

    /// `true` or `false`.
    public mutating func bool() throws(WCFailure) -> Bool? {
        try read(.bool, "true or false") { reader throws(WCFailure) in try reader.readBool() }
    }

    /// A number written without a fraction or exponent, within Int64.
    public mutating func integer() throws(WCFailure) -> Int64? {
        let number = try read(.number, "an integer") { reader throws(WCFailure) in try reader.readNumber() }
        guard let number else { return nil }
        guard case .integer(let value) = number else { throw wrong("an integer") }
        return value
    }

    /// A non-negative integer.
    public mutating func unsignedInteger() throws(WCFailure) -> UInt64? {
        guard let value = try integer() else { return nil }
        guard value >= 0 else { throw wrong("a non-negative integer") }
        return UInt64(value)
    }

    /// Any number, as a Double.
    public mutating func number() throws(WCFailure) -> Double? {
        try read(.number, "a number") { reader throws(WCFailure) in
            switch try reader.readNumber() {
            case .integer(let value): Double(value)
            case .double(let value): value
            default: preconditionFailure("readNumber reads integers and doubles")
            }
        }
    }

    /// An array of strings.
    public mutating func strings() throws(WCFailure) -> [String]? {
        try read(.array, "an array of strings") { [field] reader throws(WCFailure) in
            try reader.beginArray()
            var strings: [String] = []
            while try reader.nextElement() {
                guard try reader.kind() == .string else { throw Self.wrong(field, "an array of strings") }
                strings.append(try reader.readString())
            }
            return strings
        }
    }

    /// Any JSON value, kept as JSON (a typed request's body, a synced key's value). `null` is absent.
    public mutating func json() throws(WCFailure) -> JSONValue? {
        if try reader.kind() == .null {
            try reader.readNull()
            return nil
        }
        return try reader.readValue()
    }

    /// A property-list dictionary in the JSON conventions (`$data`, `$date`, …): a payload such as
    /// `message` or `userInfo`, read without a JSON tree. Not an object: 7008; a `null` inside: 7010.
    public mutating func dictionary() throws(WCFailure) -> PlistDictionary? {
        try read(.object, "an object") { [field] reader throws(WCFailure) in
            try PlistValue.readDictionary(&reader, name: "\"\(field)\"")
        }
    }

    /// A property-list value in the JSON conventions (a reply: a dictionary or `{"$data": …}`).
    public mutating func plist() throws(WCFailure) -> PlistValue? {
        if try reader.kind() == .null {
            try reader.readNull()
            return nil
        }
        return try PlistValue(reading: &reader)
    }

    /// The value of the one field `name` an operation reads (others are skipped), read by `read`; nil
    /// when absent or `null`.
    public mutating func only<T>(_ name: String, _ read: (inout ControlFieldReader) throws(WCFailure) -> T?) throws(WCFailure) -> T? {
        var value: T?
        while let field = try next() {
            if field == name { value = try read(&self) } else { try skip() }
        }
        return value
    }

    /// ``only(_:_:)`` for a field `op` needs: 7008 when it is absent.
    public mutating func required<T>(
        _ name: String, in op: String, _ read: (inout ControlFieldReader) throws(WCFailure) -> T?
    ) throws(WCFailure) -> T {
        guard let value = try only(name, read) else { throw Self.missing(name, in: op) }
        return value
    }

    /// 7008: the field read last is not what the operation takes.
    public func wrong(_ expected: String) -> WCFailure {
        Self.wrong(field, expected)
    }

    /// 7008: `name` is not what the operation takes.
    public static func wrong(_ name: String, _ expected: String) -> WCFailure {
        WCFailure(.invalidParameter, "'\(name)' must be \(expected)")
    }

    /// 7008: `op` needs the field `name`.
    public static func missing(_ name: String, in op: String) -> WCFailure {
        WCFailure(.invalidParameter, "'\(op)' needs '\(name)'")
    }

    /// The value when it is of `kind` (read by `read`); nil for `null`; else 7008 naming `expected`.
    private mutating func read<T>(
        _ kind: JSONReader.Kind, _ expected: String, _ read: (inout JSONReader) throws(WCFailure) -> T
    ) throws(WCFailure) -> T? {
        switch try reader.kind() {
        case .null:
            try reader.readNull()
            return nil
        case kind:
            return try read(&reader)
        default:
            throw wrong(expected)
        }
    }
}
