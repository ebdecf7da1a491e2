import Foundation

/// Reads an envelope's header straight from its UTF-8 bytes, without Foundation's JSON: the typed request
/// read a header per message on each side, and `JSONDecoder` (a value tree, a decoder, the `UUID`) was
/// most of that. It accepts only what it reads exactly as `JSONDecoder` would (strict JSON, the header's
/// fields plain, `error` absent); for anything else it answers nil and the caller takes the decoder, so
/// errors and unusual envelopes read exactly as before. It also finds where the `body` value lies, so
/// the body's decoder parses the body alone.
struct EnvelopeScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// The `body` value's bytes; nil when absent or present more than once (the decoder's to judge).
    private var body: Range<Int>?
    private var bodyCount = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The header of `text`, or nil when the decoder must decide.
    static func header(of text: String) -> WireEnvelope.Header? {
        scan(text) { _, header in header }
    }

    /// `read` of the bytes of `text`'s `body` value, when the scanner reads `text`'s header and the body is
    /// there once; nil otherwise (or when `read` answers nil).
    static func body<Result>(of text: String, _ read: (UnsafeRawBufferPointer) -> Result?) -> Result? {
        scan(text) { scanner, _ in
            guard let range = scanner.body, scanner.bodyCount == 1 else { return nil }
            return read(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: scanner.bytes[range])))
        }
    }

    /// Reads `text` in place (a native string's UTF-8 is contiguous: no copy).
    private static func scan<Result>(_ text: String, _ then: (EnvelopeScanner, WireEnvelope.Header) -> Result?) -> Result? {
        var text = text
        return text.withUTF8 { bytes in
            var scanner = EnvelopeScanner(bytes)
            guard let header = scanner.readHeader() else { return nil }
            return then(scanner, header)
        }
    }

    private mutating func readHeader() -> WireEnvelope.Header? {
        var v: Int?, kind: WireEnvelope.Kind?, id: UUID?, type: String?, reply: Bool?
        var seen: UInt8 = 0  // the header fields read, one bit each: twice is the decoder's to judge
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        depth = 1
        skipSpace()
        if !take(UInt8(ascii: "}")) {
            repeat {
                skipSpace()
                guard let key = plainString() else { return nil }
                if let bit = Self.fieldBit(key) {
                    guard seen & bit == 0 else { return nil }
                    seen |= bit
                }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                switch key {
                case "v":
                    guard let number = plainInteger() else { return nil }
                    v = number
                case "kind":
                    guard let raw = plainString(), let value = WireEnvelope.Kind(rawValue: raw) else { return nil }
                    kind = value
                case "id":
                    guard let range = plainStringRange() else { return nil }
                    // The canonical form by hand; anything else as Foundation reads it.
                    guard let value = Self.uuid(bytes[range]) ?? UUID(uuidString: String(decoding: bytes[range], as: UTF8.self))
                    else { return nil }
                    id = value
                case "type":
                    if takeLiteral("null") { type = nil } else {
                        guard let value = plainString() else { return nil }
                        type = value
                    }
                case "reply":
                    if takeLiteral("true") { reply = true } else if takeLiteral("false") { reply = false } else if !takeLiteral("null") { return nil }
                case "error":
                    guard takeLiteral("null") else { return nil }
                default:
                    let start = index
                    guard skipValue() else { return nil }
                    if key == "body" {
                        body = start..<index
                        bodyCount += 1
                    }
                }
                skipSpace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        skipSpace()
        guard index == bytes.count, let v, v == WireEnvelope.version, let kind, let id else { return nil }
        return WireEnvelope.Header(v: v, kind: kind, id: id, type: type, reply: reply)
    }

    private static func fieldBit(_ key: String) -> UInt8? {
        switch key {
        case "v": 1
        case "kind": 2
        case "id": 4
        case "type": 8
        case "reply": 16
        case "error": 32
        default: nil
        }
    }

    /// The UUID of 36 bytes in the canonical 8-4-4-4-12 form, hex digits of either case (what
    /// `UUID(uuidString:)` reads, without its C string and parser), else nil.
    static func uuid(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> UUID? {
        guard text.count == 36 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let read = withUnsafeMutableBytes(of: &value) { out -> Bool in
            var at = text.startIndex
            for byte in 0..<16 {
                if byte == 4 || byte == 6 || byte == 8 || byte == 10 {
                    guard text[at] == UInt8(ascii: "-") else { return false }
                    at += 1
                }
                guard let high = hexValue(text[at]), let low = hexValue(text[at + 1]) else { return false }
                out[byte] = UInt8(high << 4 | low)
                at += 2
            }
            return true
        }
        return read ? UUID(uuid: value) : nil
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func takeLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let matches = literal.withUTF8Buffer { buffer in buffer.indices.allSatisfy { bytes[index + $0] == buffer[$0] } }
        if matches { index += count }
        return matches
    }

    /// A string without escapes (a backslash: nil, the decoder reads it).
    private mutating func plainString() -> String? {
        plainStringRange().map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// The bytes between the quotes of a string without escapes.
    private mutating func plainStringRange() -> Range<Int>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return start..<(index - 1)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            index += 1
        }
        return nil
    }

    /// A non-negative integer of at most nine digits without a leading zero (else nil).
    private mutating func plainInteger() -> Int? {
        let start = index
        var value = 0
        while index < bytes.count, index - start < 9, (0x30...0x39).contains(bytes[index]) {
            value = value * 10 + Int(bytes[index] - 0x30)
            index += 1
        }
        let digits = index - start
        guard digits > 0, !(digits > 1 && bytes[start] == 0x30) else { return nil }
        if index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), 0x30...0x39: return nil
            default: break
            }
        }
        return value
    }

    /// Skips one JSON value, checking it is strict JSON (false: not, or too deep, or an escape the decoder must judge).
    private mutating func skipValue() -> Bool {
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "{"): return skipContainer(close: UInt8(ascii: "}"), keyed: true)
        case UInt8(ascii: "["): return skipContainer(close: UInt8(ascii: "]"), keyed: false)
        case UInt8(ascii: "\""): return skipString()
        case UInt8(ascii: "t"): return takeLiteral("true")
        case UInt8(ascii: "f"): return takeLiteral("false")
        case UInt8(ascii: "n"): return takeLiteral("null")
        default: return skipNumber()
        }
    }

    private mutating func skipContainer(close: UInt8, keyed: Bool) -> Bool {
        depth += 1
        guard depth <= 64 else { return false }
        index += 1
        skipSpace()
        if take(close) {
            depth -= 1
            return true
        }
        repeat {
            skipSpace()
            if keyed {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), skipString() else { return false }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipSpace()
            }
            guard skipValue() else { return false }
            skipSpace()
        } while take(UInt8(ascii: ","))
        guard take(close) else { return false }
        depth -= 1
        return true
    }

    private mutating func skipString() -> Bool {
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return true
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return false }
                let escaped = bytes[index]
                index += 1
                if escaped == UInt8(ascii: "u") {
                    // Surrogates (paired or lone) are the decoder's to judge.
                    var unit: UInt32 = 0
                    for _ in 0..<4 {
                        guard index < bytes.count, let nibble = Self.hexValue(bytes[index]) else { return false }
                        unit = unit << 4 | nibble
                        index += 1
                    }
                    guard !(0xD800...0xDFFF).contains(unit) else { return false }
                } else {
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                         UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"): break
                    default: return false
                    }
                }
            default:
                if byte < 0x20 { return false }
            }
        }
        return false
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }

    private mutating func skipNumber() -> Bool {
        let start = index
        _ = take(UInt8(ascii: "-"))
        let intStart = index
        guard digits() > 0 else { return false }
        if index - intStart > 1, bytes[intStart] == 0x30 { return false }
        if take(UInt8(ascii: ".")), digits() == 0 { return false }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            _ = take(UInt8(ascii: "+")) || take(UInt8(ascii: "-"))
            if digits() == 0 { return false }
        }
        return index > start
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
        return index - start
    }
}
