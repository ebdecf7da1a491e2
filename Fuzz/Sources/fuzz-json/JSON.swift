import FuzzSupport
import WatchPairWire

/// The JSON parser (`JSONValue.parse`) and writer (`canonicalText`) on any bytes.
///
/// Properties: text and bytes parse alike; what parses is written as canonical text that parses back
/// to the same value and is written again to the same bytes (canonical text is a fixed point).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzInput(start, count)
    let parsed = try? JSONValue.parse(utf8: input)
    if let text = String(validating: input, as: UTF8.self) {
        check((try? JSONValue.parse(text)) == parsed, "the text and its bytes parse differently")
    }
    guard let value = parsed else { return 0 }
    let written = value.canonicalUTF8
    let again: JSONValue
    do {
        again = try JSONValue.parse(utf8: written)
    } catch {
        fatalError("fuzz finding: canonical text \(String(decoding: written, as: UTF8.self)) does not parse: \(error)")
    }
    check(again == value, "\(value) came back as \(again)")
    check(again.canonicalUTF8 == written, "canonical text is not a fixed point: \(String(decoding: written, as: UTF8.self))")
    return 0
}
