/// A strict RFC 8259 parser over UTF-8 bytes, for `JSONValue.parse(_:)`.
///
/// Recursive descent with a depth limit of 512, so no input can exhaust the stack.
struct JSONParser {
    /// Where and why parsing stopped.
    struct Failure: Error {
        var offset: Int
        var problem: String
    }

    static let maxDepth = 512

    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(Failure) -> JSONValue {
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected text after the value") }
        return value
    }

    private func fail(_ problem: String) -> Failure {
        Failure(offset: index, problem: problem)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let b = current, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { index += 1 }
    }

    private mutating func expect(_ literal: String, _ value: JSONValue) throws(Failure) -> JSONValue {
        for b in literal.utf8 {
            guard current == b else { throw fail("invalid literal") }
            index += 1
        }
        return value
    }

    private mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
        skipWhitespace()
        guard let b = current else { throw fail("unexpected end of text") }
        switch b {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character")
        }
    }

    private mutating func parseObject(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth)") }
        index += 1  // {
        var object: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            let value = try parseValue(depth: depth)
            guard object.updateValue(value, forKey: key) == nil else {
                throw Failure(offset: keyOffset, problem: "repeated key")
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(object)
            default: throw fail("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth)") }
        index += 1  // [
        var array: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(array)
        }
        while true {
            array.append(try parseValue(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(array)
            default: throw fail("expected ',' or ']'")
            }
        }
    }

    private mutating func parseString() throws(Failure) -> String {
        index += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard let b = current else { throw fail("unterminated string") }
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape(into: &out)
            case 0..<0x20:
                throw fail("control character in string")
            default:
                // The input came from a String, so it is valid UTF-8: copy bytes through.
                out.append(b)
                index += 1
            }
        }
    }

    private mutating func parseEscape(into out: inout [UInt8]) throws(Failure) {
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
        var scalar = try parseHex4()
        if (0xD800..<0xDC00).contains(scalar) {
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
            else { throw fail("unpaired surrogate") }
            index += 2
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw fail("unpaired surrogate") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let u = Unicode.Scalar(scalar) else { throw fail("unpaired surrogate") }
        out.append(contentsOf: String(Character(u)).utf8)
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let b = current, let digit = hexValue(b) else { throw fail("invalid \\u escape") }
            v = v << 4 | digit
            index += 1
        }
        return v
    }

    private func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func parseNumber() throws(Failure) -> JSONValue {
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
            throw Failure(offset: start, problem: "number out of range")
        }
        return .double(d)
    }

    /// Skips ASCII digits; returns how many.
    private mutating func skipDigits() -> Int {
        let start = index
        while let b = current, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }
}
