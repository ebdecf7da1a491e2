import FuzzSupport
import WatchPairWire

/// The property-list codec (`PlistCodec.decode`, `EncodedDictionary(validating:)`) on any bytes.
///
/// Properties: what decodes re-encodes to exactly the input (the encoding is canonical) and
/// `encodedSize` says its size; a dictionary is accepted by `EncodedDictionary(validating:)`, keeps the
/// input as its bytes and is re-encoded by the checked encoder to them, and anything else is refused
/// by it; a decoded value makes the trip through JSON (`PlistValue.json`, `writeJSON`) and back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlist(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzInput(start, count)
    let value: PlistValue
    do {
        value = try PlistCodec.decode(input)
    } catch {
        check((try? EncodedDictionary(validating: input)) == nil, "EncodedDictionary accepted what decode refused: \(error)")
        return 0
    }
    check(PlistCodec.encode(value) == input, "\(value) does not re-encode to its bytes")
    check(PlistCodec.encodedSize(value) == input.count, "encodedSize \(PlistCodec.encodedSize(value)), encoded \(input.count)")
    check(PlistCodec.nestingDepth(of: value) <= PlistCodec.maxNestingDepth, "decoded deeper than the limit")
    if case .dictionary(let dictionary) = value {
        do {
            let validated = try EncodedDictionary(validating: input)
            check(validated.bytes == input, "EncodedDictionary changed the bytes")
            check(try EncodedDictionary(dictionary) == validated, "the checked encoder wrote other bytes")
            check(PlistCodec.encode(.dictionary(validated.dictionary)) == input, "the kept dictionary differs")
        } catch {
            fatalError("fuzz finding: a decoded dictionary was refused: \(error)")
        }
    } else {
        check((try? EncodedDictionary(validating: input)) == nil, "EncodedDictionary accepted \(value)")
    }
    checkJSONTrip(value)
    return 0
}
