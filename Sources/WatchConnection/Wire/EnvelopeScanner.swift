import Foundation

/// Reads an envelope's header straight from its UTF-8 bytes, without Foundation's JSON: the typed request
/// read a header per message on each side, and `JSONDecoder` (a value tree, a decoder, the `UUID`) was
/// most of that. It accepts only what it reads exactly as `JSONDecoder` would (strict JSON, the header's
/// fields plain, `error` absent); for anything else it answers nil and the caller takes the decoder, so
/// errors and unusual envelopes read exactly as before. It also finds where the `body` value lies, so
/// the body's decoder parses the body alone.
struct EnvelopeScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
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
        var body: Range<Int>?, bodyCount = 0
        let header = JSONCursor.read(UnsafeRawBufferPointer(bytes)) { json -> Bool? in
            let read = json.members { json, key in
                if let bit = Self.fieldBit(key) {
                    guard seen & bit == 0 else { return false }
                    seen |= bit
                }
                switch key {
                case "v":
                    guard let number = json.plainInteger() else { return false }
                    v = number
                case "kind":
                    guard let raw = json.plainString(), let value = WireEnvelope.Kind(rawValue: raw) else { return false }
                    kind = value
                case "id":
                    guard let value = json.uuid() else { return false }
                    id = value
                case "type":
                    if json.takeLiteral("null") { type = nil } else {
                        guard let value = json.plainString() else { return false }
                        type = value
                    }
                case "reply":
                    if json.takeLiteral("true") { reply = true } else if json.takeLiteral("false") { reply = false } else if !json.takeLiteral("null") { return false }
                case "error":
                    return json.takeLiteral("null")
                default:
                    let start = json.index
                    guard json.skipValue() else { return false }
                    if key == "body" {
                        body = start..<json.index
                        bodyCount += 1
                    }
                }
                return true
            }
            return read ? true : nil
        }
        self.body = body
        self.bodyCount = bodyCount
        guard header != nil, let v, v == WireEnvelope.version, let kind, let id else { return nil }
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
}
