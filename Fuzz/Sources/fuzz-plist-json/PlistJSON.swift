import FuzzSupport
import WatchPairWire

/// JSON text to property lists (`PlistValue(json:)`, `PlistJSON`) with the `$data`, `$date`, `$double`
/// and `$dict` conventions, and back.
///
/// Properties: a converted value is written by both writers alike and reads back as itself, up to what
/// JSON cannot hold (`asAfterJSON`); `PlistJSON`'s dictionary text is the same text; a converted value is
/// within the binary codec's nesting limit and survives it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlistJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzInput(start, count)
    guard let json = try? JSONValue.parse(utf8: input), let value = try? PlistValue(json: json) else { return 0 }
    checkJSONTrip(value)
    if case .dictionary(let dictionary) = value {
        let text = PlistJSON.text(of: dictionary)
        check(Array(text.utf8) == value.json.canonicalUTF8, "PlistJSON.text differs from json's text")
        check((try? PlistJSON.dictionary(fromJSONText: text)) != nil, "PlistJSON refused its own text \(text)")
    }
    do {
        check(bitEqual(try PlistCodec.decode(PlistCodec.encode(value)), value), "the binary codec changed \(value)")
    } catch {
        fatalError("fuzz finding: \(value) from JSON does not decode from its encoding: \(error)")
    }
    return 0
}
