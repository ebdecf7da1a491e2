import Foundation

/// Why a frame body or plist encoding did not parse; carries a `MalformedReason`.
///
/// Internal: the public functions map it to `FrameError.malformed` with the frame type in hand.
struct MalformedError: Error {
    var reason: MalformedReason
    init(_ reason: MalformedReason) { self.reason = reason }
}

/// Reads big-endian fields from `bytes[index..<end]` without copying the buffer.
///
/// Every read checks the remaining length first and throws `.shortBody` when the field does not fit,
/// so no input can make it read out of bounds.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var index: Int
    let end: Int

    init(_ bytes: [UInt8], from start: Int, to end: Int) {
        self.bytes = bytes
        self.index = start
        self.end = end
    }

    init(_ bytes: [UInt8]) {
        self.init(bytes, from: 0, to: bytes.count)
    }

    var remaining: Int { end - index }

    /// Throws `.trailingBytes` unless every byte has been read.
    func expectEnd() throws(MalformedError) {
        if index != end { throw MalformedError(.trailingBytes(count: end - index)) }
    }

    private mutating func take(_ count: Int) throws(MalformedError) -> Range<Int> {
        guard count >= 0, count <= remaining else { throw MalformedError(.shortBody) }
        let range = index..<(index + count)
        index += count
        return range
    }

    mutating func readUInt8() throws(MalformedError) -> UInt8 {
        let r = try take(1)
        return bytes[r.lowerBound]
    }

    mutating func readUInt16() throws(MalformedError) -> UInt16 {
        let r = try take(2)
        return UInt16(bytes[r.lowerBound]) << 8 | UInt16(bytes[r.lowerBound + 1])
    }

    mutating func readUInt32() throws(MalformedError) -> UInt32 {
        let r = try take(4)
        var v: UInt32 = 0
        for i in r { v = v << 8 | UInt32(bytes[i]) }
        return v
    }

    mutating func readUInt64() throws(MalformedError) -> UInt64 {
        let r = try take(8)
        var v: UInt64 = 0
        for i in r { v = v << 8 | UInt64(bytes[i]) }
        return v
    }

    /// A `0` or `1` byte; anything else is `.invalidBool`.
    mutating func readBool() throws(MalformedError) -> Bool {
        switch try readUInt8() {
        case 0: return false
        case 1: return true
        case let other: throw MalformedError(.invalidBool(other))
        }
    }

    /// A UInt32 length; `.shortBody` when it exceeds what is left, before anything is allocated.
    mutating func readLength() throws(MalformedError) -> Int {
        let length = Int(try readUInt32())
        guard length <= remaining else { throw MalformedError(.shortBody) }
        return length
    }

    /// UInt32 length, then UTF-8; `.invalidUTF8` when the bytes are not valid UTF-8.
    mutating func readString() throws(MalformedError) -> String {
        let r = try take(try readLength())
        guard let s = String(validating: bytes[r], as: UTF8.self) else {
            throw MalformedError(.invalidUTF8)
        }
        return s
    }

    /// UInt32 length, then that many bytes.
    mutating func readLengthPrefixedData() throws(MalformedError) -> Data {
        let r = try take(try readLength())
        return Data(bytes[r])
    }

    mutating func readUUID() throws(MalformedError) -> UUID {
        let r = try take(16)
        let b = bytes, s = r.lowerBound
        return UUID(uuid: (
            b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7],
            b[s + 8], b[s + 9], b[s + 10], b[s + 11], b[s + 12], b[s + 13], b[s + 14], b[s + 15]
        ))
    }

    /// `count` raw bytes, as a range into `bytes`.
    mutating func skip(_ count: Int) throws(MalformedError) -> Range<Int> {
        try take(count)
    }
}
