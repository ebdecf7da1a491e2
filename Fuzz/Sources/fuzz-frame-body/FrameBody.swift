import FuzzSupport
import WatchPairWire

/// The body of one frame (`FrameBodyDecoder`, through `FrameDecoder`): the input is the type byte and
/// the body; the length and the checksum are written around them, so every input reaches the body.
///
/// Properties: a body is either rejected as malformed (or, for a hello, as an unsupported version; an
/// unknown type byte as unknown) or decoded to exactly one frame whose encoding is exactly the input
/// frame (the encoding is canonical).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameBody(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzInput(start, count)
    guard let type = input.first else { return 0 }
    let bytes = frameBytes(type: type, body: input.dropFirst())
    var decoder = FrameDecoder(maxFrameLength: Int(UInt32.max))
    decoder.append(bytes)
    do throws(FrameError) {
        guard let frame = try decoder.next() else {
            fatalError("fuzz finding: a whole frame of type \(type) was not decoded")
        }
        check(try decoder.next() == nil, "two frames from one")
        try decoder.finish()
        check(FrameEncoder.encode(frame) == bytes, "\(frame) does not re-encode to its bytes")
    } catch {
        switch error {
        case .malformed(let frameType, _):
            check(frameType == type, "malformed names type \(frameType), not \(type)")
        case .unsupportedVersion:
            check(type == FrameType.hello.rawValue, "unsupportedVersion for type \(type)")
        case .unknownType(let t):
            check(t == type && FrameType(rawValue: type) == nil, "unknownType(\(t)) for type \(type)")
        case .truncated, .badLength, .tooLarge, .badChecksum:
            fatalError("fuzz finding: \(error) for a whole frame of type \(type)")
        }
    }
    return 0
}
