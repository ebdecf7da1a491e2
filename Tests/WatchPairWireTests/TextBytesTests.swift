import Foundation
import Testing

@testable import WatchPairWire

/// The event lines' numbers, ids and timestamps are written as bytes in place; they must be the text
/// `String(n)`, `uuidString` and the former string-joining timestamp gave, for every value.
@Suite("Text written as bytes")
struct TextBytesTests {
    @Test(arguments: [Int64.min, Int64.min + 1, -1_000_000, -10, -9, -1, 0, 1, 9, 10, 99, 100, 1500, Int64.max - 1, Int64.max])
    func signedDecimalIsStringOfIt(_ value: Int64) {
        var out: [UInt8] = Array("x".utf8)
        TextBytes.append(decimal: value, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "x" + String(value))
    }

    @Test(arguments: [0, 1, 9, 10, 7014, UInt64(Int64.max) + 1, UInt64.max - 1, UInt64.max])
    func unsignedDecimalIsStringOfIt(_ value: UInt64) {
        var out: [UInt8] = []
        TextBytes.append(decimal: value, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == String(value))
    }

    @Test func uuidIsItsUUIDString() {
        var uuids = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
            UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!]
        for _ in 0..<200 { uuids.append(UUID()) }
        for uuid in uuids {
            var out: [UInt8] = []
            TextBytes.append(uuid: uuid, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == uuid.uuidString)
        }
    }

    /// The timestamp as it was written before its digits went in place: the clamp, the calendar fields, then
    /// a padded string per field, joined (`EventTimestampTests` checks the texts against known ones).
    static func formerTimestamp(_ microseconds: Int64) -> String {
        let limit = (ISO8601Timestamp.endSeconds + ISO8601Timestamp.referenceUnixOffset) * 1_000_000 - 1
        let lower = (ISO8601Timestamp.minSeconds + ISO8601Timestamp.referenceUnixOffset) * 1_000_000
        let value = min(max(microseconds, lower), limit)
        let unix = ISO8601Timestamp.floorDivide(value, 1_000_000)
        let days = ISO8601Timestamp.floorDivide(unix, 86_400)
        let secondOfDay = unix - days * 86_400
        let (y, m, d) = ISO8601Timestamp.civilFromDays(days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let s = String(value)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T" + pad(secondOfDay / 3600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2) + "." + pad(value - unix * 1_000_000, 6) + "Z"
    }

    /// `$date` texts share the calendar writer: the date and time before the fraction are the event
    /// timestamp's for the same second, and the text still parses back to the same `Double`.
    @Test func dateTextSharesTheCalendarWriter() throws {
        var seconds: [Double] = [0, -1, 1, -0.25, 1e-3, Double(ISO8601Timestamp.minSeconds), Double(ISO8601Timestamp.endSeconds) - 0.5]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            seconds.append(Double.random(in: Double(ISO8601Timestamp.minSeconds)..<Double(ISO8601Timestamp.endSeconds), using: &generator))
        }
        for t in seconds {
            let text = try #require(ISO8601Timestamp.format(t), "\(t)")
            let unixMicroseconds = (Int64(t.rounded(.down)) + ISO8601Timestamp.referenceUnixOffset) * 1_000_000
            #expect(text.prefix(20) == Self.formerTimestamp(unixMicroseconds).prefix(20), "\(t)")
            #expect(ISO8601Timestamp.parse(text) == t, "\(text)")
        }
    }

    @Test func timestampIsTheFormerText() {
        var values: [Int64] = [Int64.min, Int64.max, 0, -1, 1, 951_782_400_000_000, 1_795_000_000_123_456, 253_402_300_799_999_999]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 { values.append(Int64.random(in: -62_167_219_200_000_000...253_402_300_799_999_999, using: &generator)) }
        for value in values {
            var out: [UInt8] = Array("[".utf8)
            EventTimestamp.append(microseconds: value, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == "[" + Self.formerTimestamp(value), "\(value)")
            #expect(EventTimestamp.format(microseconds: value) == Self.formerTimestamp(value))
        }
    }
}
