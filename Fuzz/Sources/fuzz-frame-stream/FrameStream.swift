import FuzzSupport
import WatchPairWire

/// The peer link's byte stream (`FrameDecoder`): header, length limit, checksum, type, body.
///
/// Properties: how the stream is cut into reads never changes what is decoded (the whole input at
/// once and one byte per read give the same frames and the same error); the frames returned are,
/// in order, the canonical encodings of the input's first bytes, and of all of it when no error is
/// reported; once `next()` has thrown, the decoder drops what is appended and throws that error again.
/// Bodies are reached more often through `fuzz-frame-body`, which writes the checksum itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameStream(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzInput(start, count)
    let whole = decode(input, readSize: max(input.count, 1))
    let bytewise = decode(input, readSize: 1)
    check(whole.frames == bytewise.frames, "reads of one byte decoded \(bytewise.frames), one read \(whole.frames)")
    check(whole.error == bytewise.error, "reads of one byte failed with \(String(describing: bytewise.error)), one read \(String(describing: whole.error))")
    let encoded = whole.frames.flatMap(FrameEncoder.encode)
    check(input.starts(with: encoded), "\(whole.frames) are not the input's first bytes")
    if whole.error == nil { check(encoded.count == input.count, "no error, but \(input.count - encoded.count) bytes left over") }
    return 0
}

/// Feeds `input` in reads of `readSize` bytes, draining after each; then `finish()`.
private func decode(_ input: [UInt8], readSize: Int) -> (frames: [Frame], error: FrameError?) {
    var decoder = FrameDecoder()
    var frames: [Frame] = []
    do throws(FrameError) {
        var offset = 0
        while offset < input.count {
            let end = min(offset + readSize, input.count)
            decoder.append(input[offset..<end])
            offset = end
            while let frame = try decoder.next() { frames.append(frame) }
        }
    } catch {
        checkPoisoned(&decoder, by: error, input: input)
        return (frames, error)
    }
    do {
        try decoder.finish()
        return (frames, nil)
    } catch {
        return (frames, error)  // a partial frame at the end: not poisoning, the stream just ended
    }
}

/// After `next()` threw `error`: bytes appended are dropped and every call throws `error` again.
private func checkPoisoned(_ decoder: inout FrameDecoder, by error: FrameError, input: [UInt8]) {
    decoder.append(input)
    check(decoder.bufferedByteCount == 0, "a decoder poisoned by \(error) kept bytes")
    do throws(FrameError) {
        _ = try decoder.next()
        fatalError("fuzz finding: a decoder poisoned by \(error) went on")
    } catch let again {
        check(again == error, "poisoned by \(error), next() then threw \(again)")
    }
    do throws(FrameError) {
        try decoder.finish()
        fatalError("fuzz finding: a decoder poisoned by \(error) finished")
    } catch let again {
        check(again == error, "poisoned by \(error), finish() then threw \(again)")
    }
}
