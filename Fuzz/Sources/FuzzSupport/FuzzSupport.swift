import Foundation
import WatchPairWire

/// The input libFuzzer hands to `LLVMFuzzerTestOneInput`, copied (a null pointer is the empty input).
public func fuzzInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
    guard let start, count > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: start, count: count))
}

/// A property every input must keep. A broken one stops the process, which libFuzzer reports as a
/// crash and saves the input for (docs/Fuzzing.md, "A finding").
public func check(
    _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
) {
    if !condition { fatalError("fuzz finding: \(message())", file: file, line: line) }
}

/// A frame built by hand around `body`: length, `type`, body, CRC-32C of what the format says it covers
/// (`FrameFormat.checkedLength`), so the fuzzer need not forge a checksum.
public func frameBytes(type: UInt8, body: some Collection<UInt8>) -> [UInt8] {
    let length = UInt32(body.count + 1)
    var bytes = [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type]
    bytes += body
    let crc = CRC32C.checksum(bytes[4..<(4 + FrameFormat.checkedLength(type: type, length: Int(length)))])
    bytes += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    return bytes
}

/// Bytes as hex, for messages (a value's description hides -0.0 dates and NaN payloads).
public func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String($0, radix: 16).leftPadded }.joined(separator: " ")
}

extension String {
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}

/// Equality by the canonical binary encoding: bit for bit, so -0.0 differs from 0.0 and NaNs compare
/// by their bits.
public func bitEqual(_ a: PlistValue, _ b: PlistValue) -> Bool {
    PlistCodec.encode(a) == PlistCodec.encode(b)
}

/// `value` as its trip through JSON gives it back (docs/WireFormat.md, "JSON form of property lists"):
/// every NaN (double or date) is `.nan`, since JSON has one NaN (`"NaN"`) and a NaN's sign and payload
/// bits are lost, and a date of -0.0 is 0.0 (written as 2001-01-01T00:00:00.000Z). Every other bit survives.
public func asAfterJSON(_ value: PlistValue) -> PlistValue {
    switch value {
    case .double(let d) where d.isNaN: .double(.nan)
    case .date(let date) where date.timeIntervalSinceReferenceDate.isNaN: .date(Date(timeIntervalSinceReferenceDate: .nan))
    case .date(let date) where date.timeIntervalSinceReferenceDate == 0: .date(Date(timeIntervalSinceReferenceDate: 0))
    case .array(let a): .array(a.map(asAfterJSON))
    case .dictionary(let d): .dictionary(d.mapValues(asAfterJSON))
    case .string, .integer, .double, .bool, .date, .data: value
    }
}

/// Checks the trip a property-list value makes through JSON: the direct writer (`writeJSON`) writes
/// exactly the tree's canonical text, and that text reads back to the same value (as `asAfterJSON` says).
public func checkJSONTrip(_ value: PlistValue) {
    let text = value.json.canonicalUTF8
    var direct: [UInt8] = []
    value.writeJSON(into: &direct)
    check(direct == text, "writeJSON wrote \(String(decoding: direct, as: UTF8.self)), json \(String(decoding: text, as: UTF8.self))")
    let back: PlistValue
    do {
        back = try PlistValue(json: JSONValue.parse(utf8: text))
    } catch {
        fatalError("fuzz finding: the JSON written for \(value) does not read back: \(error)")
    }
    check(
        bitEqual(back, asAfterJSON(value)),
        "\(hex(PlistCodec.encode(value))) came back from \(String(decoding: text, as: UTF8.self)) as \(hex(PlistCodec.encode(back)))")
}
