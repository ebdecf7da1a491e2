import Foundation

/// Reads JSON the layer wrote itself straight from its UTF-8 bytes, for the few shapes read often enough
/// that Foundation's `JSONDecoder` showed in profiles: an envelope's header per message
/// (``EnvelopeScanner``) and the recorded responses at every launch (``ResponseLedgerFile``). It accepts
/// only what it reads exactly as `JSONDecoder` would: strict JSON, valid UTF-8, finite numbers, no
/// surrogate escapes, no key it reads twice; for anything else a read answers nil (or false) and the caller takes
/// the decoder, so unusual or broken input reads, and fails, exactly as before.
struct JSONCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    private(set) var index = 0
    /// Containers open while skipping: a value nested deeper than ``maxDepth`` is the decoder's to judge.
    private var depth = 0
    static let maxDepth = 64

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// `read` of a cursor over `bytes`, when it reads a value that the bytes hold whole (whitespace around
    /// it allowed); nil otherwise.
    static func read<Value>(_ bytes: UnsafeRawBufferPointer, _ read: (inout JSONCursor) -> Value?) -> Value? {
        var cursor = JSONCursor(bytes.bindMemory(to: UInt8.self))
        cursor.skipSpace()
        guard let value = read(&cursor) else { return nil }
        cursor.skipSpace()
        return cursor.index == cursor.bytes.count ? value : nil
    }

    // MARK: Containers

    /// Reads an object, calling `member` with each key (one without escapes, as the layer writes keys)
    /// to read that key's value; false when the object is not read whole or `member` answers false.
    /// A key the caller reads must not repeat (the decoder takes the first, the caller would take the
    /// last), so `member` answers false for a second one; a key it skips may repeat.
    mutating func members(_ member: (inout JSONCursor, String) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        skipSpace()
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            skipSpace()
            guard let key = plainString() else { return false }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return false }
            skipSpace()
            guard member(&self, key) else { return false }
            skipSpace()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// Reads an array, calling `element` to read each element; false when the array is not read whole or
    /// `element` answers false.
    mutating func elements(_ element: (inout JSONCursor) -> Bool) -> Bool {
        guard take(UInt8(ascii: "[")) else { return false }
        skipSpace()
        if take(UInt8(ascii: "]")) { return true }
        repeat {
            skipSpace()
            guard element(&self) else { return false }
            skipSpace()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]"))
    }

    // MARK: Values

    /// A string without escapes (a backslash: nil, the decoder reads it).
    mutating func plainString() -> String? {
        guard let range = plainStringRange() else { return nil }
        return Self.text(UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// The bytes between the quotes of a string without escapes or control characters.
    mutating func plainStringRange() -> Range<Int>? {
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

    /// A string, its escapes undone; nil for a `\u` escape of a surrogate (paired or lone: the decoder's
    /// to judge), an unknown escape, a control character, or bytes that are not UTF-8.
    mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        // Runs between escapes are copied whole; without escapes nothing is copied but the result.
        var unescaped: [UInt8] = []
        var escapes = false
        var run = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let tail = UnsafeBufferPointer(rebasing: bytes[run..<index])
                index += 1
                guard escapes else { return Self.text(tail) }
                unescaped.append(contentsOf: tail)
                return unescaped.withUnsafeBufferPointer { Self.text($0) }
            }
            if byte == UInt8(ascii: "\\") {
                unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                index += 1
                guard let unit = escaped() else { return nil }
                if unit < 0x80 {
                    unescaped.append(UInt8(unit))
                } else {
                    unescaped.append(contentsOf: String(Character(Unicode.Scalar(unit)!)).utf8)
                }
                escapes = true
                run = index
                continue
            }
            if byte < 0x20 { return nil }
            index += 1
        }
        return nil
    }

    /// `utf8` as a string, or nil when it is not UTF-8 (the decoder refuses such text; repairing it would
    /// read it differently). ASCII, what the layer's files mostly hold, needs no validation.
    private static func text(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
        if utf8.allSatisfy({ $0 < 0x80 }) { return String(decoding: utf8, as: UTF8.self) }
        return String(validating: utf8, as: UTF8.self)
    }

    /// The scalar of the escape after a backslash (not a surrogate); nil when it is not one JSON allows
    /// or a surrogate.
    private mutating func escaped() -> UInt32? {
        guard index < bytes.count else { return nil }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return UInt32(letter)
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        case UInt8(ascii: "u"):
            var unit: UInt32 = 0
            for _ in 0..<4 {
                guard index < bytes.count, let nibble = Self.hexValue(bytes[index]) else { return nil }
                unit = unit << 4 | nibble
                index += 1
            }
            return (0xD800...0xDFFF).contains(unit) ? nil : unit
        default: return nil
        }
    }

    /// A non-negative integer of at most nine digits without a leading zero (else nil).
    mutating func plainInteger() -> Int? {
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

    /// A number as a `Double`, rounded as the decoder rounds it (to nearest); nil when it is not a JSON
    /// number or does not fit.
    mutating func number() -> Double? {
        let start = index
        guard skipNumber(), let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite
        else { return nil }
        return value
    }

    /// A UUID string in the canonical 8-4-4-4-12 form, or any other form `UUID(uuidString:)` reads.
    mutating func uuid() -> UUID? {
        guard let range = plainStringRange() else { return nil }
        return Self.uuid(bytes[range]) ?? UUID(uuidString: String(decoding: bytes[range], as: UTF8.self))
    }

    /// `true`, `false` or `null` when the next bytes are `literal`.
    mutating func takeLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let matches = literal.withUTF8Buffer { buffer in buffer.indices.allSatisfy { bytes[index + $0] == buffer[$0] } }
        if matches { index += count }
        return matches
    }

    // MARK: Skipping

    /// Skips one JSON value, checking it is strict JSON (false: not, or too deep, or an escape the decoder
    /// must judge).
    mutating func skipValue() -> Bool {
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
        guard depth <= Self.maxDepth else { return false }
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
            case UInt8(ascii: "\\"): guard escaped() != nil else { return false }
            default: if byte < 0x20 { return false }
            }
        }
        return false
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

    // MARK: Bytes

    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
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

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }
}

/// A stored type with a reader of its own (``JSONCursor``) for the JSON its `Codable` conformance writes,
/// tried before `JSONDecoder` when a file is read: for files read at every launch and large enough that
/// the decoder showed on the launch's path.
protocol CursorDecodable: Decodable {
    /// The value at the cursor, read exactly as `JSONDecoder` would read it, or nil when the decoder
    /// must decide.
    static func read(_ json: inout JSONCursor) -> Self?
}

extension CursorDecodable {
    /// The value `bytes` hold whole, or nil when the decoder must decide.
    static func read(_ bytes: UnsafeRawBufferPointer) -> Self? {
        JSONCursor.read(bytes) { read(&$0) }
    }
}

extension JSONDecoder {
    /// `type` from `data`: by its own reader when it has one and that reads it, else by the decoder.
    func decodeStored<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        if let readable = type as? any CursorDecodable.Type,
           let value = data.withUnsafeBytes({ readable.read($0) }) as? Value {
            return value
        }
        return try decode(type, from: data)
    }
}
