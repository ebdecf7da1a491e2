/// A strict RFC 8259 pull reader over UTF-8 bytes: the one JSON parser of the package.
///
/// `JSONValue.parse(_:)` builds a tree with it; the control plane reads a request's fields straight
/// from the line with it (`ControlEnvelope`, `ControlFieldReader`), so a request allocates only what it
/// keeps. Containers are entered with ``beginObject()``/``beginArray()`` and walked with
/// ``nextKey()``/``nextElement()``; a value the caller does not want is passed over with ``skipValue()``,
/// which checks its syntax without building it. Nesting is limited to ``maxDepth`` containers, so no
/// input can exhaust the stack. The bytes must be valid UTF-8 (the callers check lines first). Every
/// failure is 7008 (`invalidParameter`) naming the byte offset and the problem.
public struct JSONReader: Sendable {
    /// What the next value is.
    public enum Kind: Sendable {
        case object, array, string, number, bool, null
    }

    /// The most containers open at once.
    public static let maxDepth = 512

    private let bytes: [UInt8]
    /// The offset of the next byte to read.
    public private(set) var index: Int
    private var depth = 0
    /// Set by `begin…`: the container's first member has no comma before it. One flag serves every
    /// level: an inner container is only begun after its outer one has passed its first member.
    private var atFirstMember = false
    /// The keys of the objects being skipped, innermost last: a repeated key is not JSON, built or not.
    /// One array per reader, reused (small keys are stored inline in their `String`s).
    private var skippedKeys: [String] = []

    /// A reader at the start of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.index = 0
    }

    // MARK: Values

    /// The kind of the next value (whitespace before it is skipped).
    public mutating func kind() throws(WCFailure) -> Kind {
        skipWhitespace()
        guard let b = current else { throw fail("unexpected end of text") }
        switch b {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw fail("unexpected character")
        }
    }

    /// Reads a string value.
    public mutating func readString() throws(WCFailure) -> String {
        skipWhitespace()
        guard current == UInt8(ascii: "\"") else { throw fail("expected a string") }
        index += 1
        let start = index
        // Plain strings (no escapes) are read in place; small ones then allocate nothing.
        while let b = current, b != UInt8(ascii: "\""), b != UInt8(ascii: "\\"), b >= 0x20 { index += 1 }
        if current == UInt8(ascii: "\"") {
            index += 1
            return String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
        }
        var out = Array(bytes[start..<index])
        try readStringTail(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Reads a number: `.integer` when it is written without a fraction or exponent and fits Int64,
    /// else `.double`.
    public mutating func readNumber() throws(WCFailure) -> JSONValue {
        skipWhitespace()
        let start = index
        var isInteger = true
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard skipDigits() > 0 else { throw fail("invalid number") }
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard skipDigits() > 0 else { throw fail("invalid number") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw fail("invalid number") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let i = Int64(text) { return .integer(i) }
        guard let d = Double(text), d.isFinite else {
            throw Self.failure(at: start, "number out of range")
        }
        return .double(d)
    }

    /// Reads `true` or `false`.
    public mutating func readBool() throws(WCFailure) -> Bool {
        skipWhitespace()
        if current == UInt8(ascii: "t") {
            try expect("true")
            return true
        }
        try expect("false")
        return false
    }

    /// Reads `null`.
    public mutating func readNull() throws(WCFailure) {
        skipWhitespace()
        try expect("null")
    }

    /// Reads the next value whole, as a tree.
    public mutating func readValue() throws(WCFailure) -> JSONValue {
        switch try kind() {
        case .string: return .string(try readString())
        case .number: return try readNumber()
        case .bool: return .bool(try readBool())
        case .null:
            try readNull()
            return .null
        case .array:
            try beginArray()
            var array: [JSONValue] = []
            while try nextElement() { array.append(try readValue()) }
            return .array(array)
        case .object:
            try beginObject()
            var object: [String: JSONValue] = [:]
            while let (key, keyOffset) = try nextKeyWithOffset() {
                guard object.updateValue(try readValue(), forKey: key) == nil else {
                    throw Self.failure(at: keyOffset, "repeated key")
                }
            }
            return .object(object)
        }
    }

    /// Passes over the next value, checking its syntax (repeated keys included), without building it.
    public mutating func skipValue() throws(WCFailure) {
        switch try kind() {
        case .string: try skipString()
        case .number: _ = try readNumber()
        case .bool: _ = try readBool()
        case .null: try readNull()
        case .array:
            try beginArray()
            while try nextElement() { try skipValue() }
        case .object:
            try beginObject()
            let first = skippedKeys.count
            while let (key, offset) = try nextKeyWithOffset() {
                guard !skippedKeys[first...].contains(key) else { throw Self.failure(at: offset, "repeated key") }
                skippedKeys.append(key)
                try skipValue()
            }
            skippedKeys.removeSubrange(first...)
        }
    }

    /// Checks that only whitespace follows.
    public mutating func expectEnd() throws(WCFailure) {
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected text after the value") }
    }

    // MARK: Containers

    /// Enters an object; walk its members with ``nextKey()``.
    public mutating func beginObject() throws(WCFailure) {
        try begin(UInt8(ascii: "{"), "expected an object")
    }

    /// Enters an array; walk its elements with ``nextElement()``.
    public mutating func beginArray() throws(WCFailure) {
        try begin(UInt8(ascii: "["), "expected an array")
    }

    /// The next member's key (its value is to be read next), or nil at the end of the object.
    public mutating func nextKey() throws(WCFailure) -> String? {
        try nextKeyWithOffset()?.key
    }

    /// The next member's key and the offset where it starts, or nil at the end of the object.
    public mutating func nextKeyWithOffset() throws(WCFailure) -> (key: String, offset: Int)? {
        guard try nextMember(closing: UInt8(ascii: "}"), "expected ',' or '}'") else { return nil }
        guard current == UInt8(ascii: "\"") else { throw fail("expected a string key") }
        let offset = index
        let key = try readString()
        skipWhitespace()
        guard current == UInt8(ascii: ":") else { throw fail("expected ':'") }
        index += 1
        return (key, offset)
    }

    /// Whether another element follows (read it next), or false at the end of the array.
    public mutating func nextElement() throws(WCFailure) -> Bool {
        try nextMember(closing: UInt8(ascii: "]"), "expected ',' or ']'")
    }

    private mutating func begin(_ opening: UInt8, _ problem: String) throws(WCFailure) {
        skipWhitespace()
        guard current == opening else { throw fail(problem) }
        depth += 1
        guard depth <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth)") }
        index += 1
        atFirstMember = true
    }

    /// Consumes the comma before a member, or the container's closing byte (returning false).
    private mutating func nextMember(closing: UInt8, _ problem: String) throws(WCFailure) -> Bool {
        skipWhitespace()
        if current == closing {
            // `[1,]` and `{"a":1,}` fail on the member the comma promised, never reaching here.
            index += 1
            depth -= 1
            atFirstMember = false
            return false
        }
        if atFirstMember {
            atFirstMember = false
        } else {
            guard current == UInt8(ascii: ",") else { throw fail(problem) }
            index += 1
            skipWhitespace()
        }
        return true
    }

    // MARK: Bytes

    private func fail(_ problem: String) -> WCFailure {
        Self.failure(at: index, problem)
    }

    /// 7008 naming the offset and the problem: the error of every text that is not JSON.
    public static func failure(at offset: Int, _ problem: String) -> WCFailure {
        WCFailure(.invalidParameter, "Invalid JSON at byte \(offset): \(problem).")
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let b = current, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { index += 1 }
    }

    private mutating func expect(_ literal: StaticString) throws(WCFailure) {
        for b in UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount) {
            guard current == b else { throw fail("invalid literal") }
            index += 1
        }
    }

    private mutating func skipString() throws(WCFailure) {
        index += 1  // opening quote
        while let b = current, b != UInt8(ascii: "\""), b != UInt8(ascii: "\\"), b >= 0x20 { index += 1 }
        if current == UInt8(ascii: "\"") {
            index += 1
            return
        }
        // Escapes are rare in skipped fields; check them with the full reader.
        var scratch: [UInt8] = []
        try readStringTail(into: &scratch)
    }

    /// The rest of a string after a plain prefix, through its closing quote.
    private mutating func readStringTail(into out: inout [UInt8]) throws(WCFailure) {
        while true {
            guard let b = current else { throw fail("unterminated string") }
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 1
                try readEscape(into: &out)
            case 0..<0x20:
                throw fail("control character in string")
            default:
                out.append(b)
                index += 1
            }
        }
    }

    private mutating func readEscape(into out: inout [UInt8]) throws(WCFailure) {
        guard let e = current else { throw fail("unterminated string") }
        index += 1
        let simple: UInt8? = switch e {
        case UInt8(ascii: "\""): 0x22
        case UInt8(ascii: "\\"): 0x5C
        case UInt8(ascii: "/"): 0x2F
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
        if let simple {
            out.append(simple)
            return
        }
        guard e == UInt8(ascii: "u") else { throw fail("invalid escape") }
        var scalar = try readHex4()
        if (0xD800..<0xDC00).contains(scalar) {
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
            else { throw fail("unpaired surrogate") }
            index += 2
            let low = try readHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw fail("unpaired surrogate") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let u = Unicode.Scalar(scalar) else { throw fail("unpaired surrogate") }
        out.append(contentsOf: String(Character(u)).utf8)
    }

    private mutating func readHex4() throws(WCFailure) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let b = current, let digit = Self.hexValue(b) else { throw fail("invalid \\u escape") }
            v = v << 4 | digit
            index += 1
        }
        return v
    }

    private static func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Skips ASCII digits; returns how many.
    private mutating func skipDigits() -> Int {
        let start = index
        while let b = current, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }
}
