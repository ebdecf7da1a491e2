import Foundation
import Testing
import WatchPairTesting
import WatchPairWire

/// Seeded, deterministic fuzzing: no input may crash the decoders, a corrupted frame is never returned as
/// a different valid frame, and every body the decoder accepts is the canonical encoding of what it returns.
@Suite struct FrameFuzzTests {
    /// Feeds `bytes` in random chunks; returns the frames decoded and the error, if any.
    private func feed(_ bytes: [UInt8], rng: inout TestRandom) -> (frames: [Frame], error: FrameError?) {
        var decoder = FrameDecoder(maxFrameLength: 4096)
        var frames: [Frame] = []
        var offset = 0
        do {
            while offset < bytes.count {
                let chunk = Int.random(in: 1...max(1, bytes.count - offset), using: &rng)
                decoder.append(bytes[offset..<(offset + chunk)])
                offset += chunk
                while let frame = try decoder.next() { frames.append(frame) }
            }
            try decoder.finish()
            return (frames, nil)
        } catch {
            return (frames, error)
        }
    }

    @Test func randomBytesNeverCrash() {
        var rng = TestRandom(seed: 0x5EED)
        var accepted = 0
        for n in 0..<4000 {
            var bytes = (0..<Int.random(in: 0...80, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if n % 2 == 0, bytes.count >= 5 {
                // A plausible header, so the checksum and body paths run too.
                bytes.replaceSubrange(0..<4, with: be32(UInt32(bytes.count - 8 > 0 ? bytes.count - 8 : 1)))
                bytes[4] = UInt8.random(in: 0...15, using: &rng)
            }
            let (frames, _) = feed(bytes, rng: &rng)
            accepted += frames.count
            for frame in frames {
                // Anything accepted re-encodes to bytes actually present in the input.
                let encoded = FrameEncoder.encode(frame)
                #expect(bytes.starts(with: encoded) || bytes.firstRange(of: encoded) != nil)
            }
        }
        #expect(accepted < 5)  // random bytes essentially never pass the checksum
    }

    @Test func mutatedFramesAreRejected() {
        var generator = PlistGenerator(rng: TestRandom(seed: 0xF00D))
        var rng = TestRandom(seed: 0xBEEF)
        var checked = 0
        for _ in 0..<1500 {
            let frame = generator.frame()
            let original = FrameEncoder.encode(frame)
            guard original.count - 8 <= 4096 else { continue }
            var mutated = original
            let kind = Int.random(in: 0...3, using: &rng)
            // A fileChunk's bytes are outside its frame's checksum (the file's checksum covers them).
            var unchecked: Range<Int>?
            if case .fileChunk = frame { unchecked = (4 + FrameFormat.fileChunkCheckedLength)..<(original.count - 4) }
            switch kind {
            case 0:  // change one byte
                let i = Int.random(in: 0..<mutated.count, using: &rng)
                mutated[i] ^= UInt8.random(in: 1...255, using: &rng)
                if let unchecked, unchecked.contains(i) {
                    let (frames, error) = feed(mutated, rng: &rng)
                    #expect(error == nil && frames.map(FrameEncoder.encode) == [mutated], "a chunk byte of \(frame) changed")
                    checked += 1
                    continue
                }
            case 1:  // truncate
                mutated.removeLast(Int.random(in: 1...mutated.count, using: &rng))
            case 2:  // insert a byte
                mutated.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...mutated.count, using: &rng))
            default:  // delete a byte
                mutated.remove(at: Int.random(in: 0..<mutated.count, using: &rng))
            }
            let (frames, error) = feed(mutated, rng: &rng)
            // Never a different frame: at most the original, and only when its bytes survived intact
            // (a byte inserted after the trailer); the damage is then still reported as a truncated tail.
            #expect(frames.allSatisfy { FrameEncoder.encode($0) == original }, "mutation \(kind) of \(frame) gave \(frames)")
            if !frames.isEmpty { #expect(mutated.starts(with: original) && mutated.count == original.count + 1) }
            #expect(error != nil || mutated.isEmpty, "mutation \(kind) of \(frame) was not reported")
            if kind == 1, !mutated.isEmpty {
                #expect(error == .truncated(bufferedBytes: mutated.count), "\(String(describing: error))")
            }
            checked += 1
        }
        #expect(checked > 1000)
    }

    /// Bodies with a valid checksum: mutations of valid bodies and random bytes under every type.
    /// The decoder either rejects them with `malformed`/`unsupportedVersion`, or returns a frame whose
    /// encoding is exactly the input (the encoding is canonical).
    @Test func bodiesWithValidChecksums() {
        var generator = PlistGenerator(rng: TestRandom(seed: 0xCAFE))
        var rng = TestRandom(seed: 0xD00D)
        var accepted = 0, rejected = 0
        for n in 0..<3000 {
            var type: UInt8
            var body: [UInt8]
            if n % 3 == 0 {
                type = UInt8.random(in: 1...14, using: &rng)
                body = (0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                if type == 1, body.count >= 2 { body[0] = 0; body[1] = 2 }  // mostly the current version
            } else {
                let valid = FrameEncoder.encode(generator.frame())
                type = valid[4]
                body = Array(valid[5..<(valid.count - 4)])
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    switch Int.random(in: 0...3, using: &rng) {
                    case 0 where !body.isEmpty:
                        body[Int.random(in: 0..<body.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                    case 1 where !body.isEmpty:
                        body.removeLast(Int.random(in: 1...body.count, using: &rng))
                    case 2:
                        body.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...body.count, using: &rng))
                    default:
                        body.append(contentsOf: [0x04, 0x01])
                    }
                }
            }
            let bytes = rawFrame(type: type, body: body)
            do {
                let frames = try decodeAll(bytes, maxFrameLength: .max)
                #expect(frames.count == 1)
                #expect(frames.map(FrameEncoder.encode) == [bytes], "type \(type) body \(body)")
                accepted += 1
            } catch {
                switch error {
                case .malformed(let t, _): #expect(t == type)
                case .unsupportedVersion: #expect(type == 1)
                default: Issue.record("unexpected \(error) for type \(type)")
                }
                rejected += 1
            }
        }
        #expect(accepted > 100)
        #expect(rejected > 1000)
    }

    @Test func plistDecodeNeverCrashes() {
        var generator = PlistGenerator(rng: TestRandom(seed: 0xABCD))
        var rng = TestRandom(seed: 0x1234)
        for n in 0..<3000 {
            var bytes: [UInt8]
            if n % 4 == 0 {
                bytes = (0..<Int.random(in: 0...30, using: &rng)).map { _ in UInt8.random(in: 0...12, using: &rng) }
            } else {
                bytes = PlistCodec.encode(generator.value(depth: 4))
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                if n % 2 == 0 { bytes[i] = UInt8.random(in: 0...255, using: &rng) } else { bytes.removeLast(bytes.count - i) }
            }
            do {
                let value = try PlistCodec.decode(bytes)
                #expect(PlistCodec.encode(value) == bytes)
                #expect(PlistCodec.encodedSize(value) == bytes.count)
            } catch {
                guard case .malformed(frameType: 0, _) = error else { Issue.record("unexpected \(error)"); continue }
            }
        }
    }
}
