import Foundation
import Testing
import WatchPairWire

/// `fileChunk` frames (a file's bytes) arriving over several appends, at every split: the frames, the
/// errors and the buffered counts must be those of a chunk that arrives whole (a receive path that
/// handles chunks apart, as tried in BENCHMARKS.md *Files*, must keep them).
@Suite struct FrameDecoderChunkTests {
    static let chunk = Frame.fileChunk(seq: 4, offset: 131_072, bytes: Data((0..<700).map { UInt8(truncatingIfNeeded: $0 &* 7) }))
    static let stream: [Frame] = [.ping(nonce: 1), chunk, chunk, .fileAck(seq: 4, offset: 0), .pong(nonce: 1)]
    static let streamBytes = stream.flatMap(FrameEncoder.encode)

    @Test func splitAtEveryByteBoundary() throws {
        let bytes = Self.streamBytes
        for split in 0...bytes.count {
            #expect(try decode([Array(bytes[..<split]), Array(bytes[split...])]) == Self.stream, "split at \(split)")
        }
    }

    @Test func oneByteAtATimeAndInPieces() throws {
        #expect(try decode(Self.streamBytes.map { [$0] }) == Self.stream)
        for size in [3, 24, 25, 26, 100, 699, 729, 730] {
            let pieces = stride(from: 0, to: Self.streamBytes.count, by: size).map {
                Array(Self.streamBytes[$0..<min($0 + size, Self.streamBytes.count)])
            }
            #expect(try decode(pieces) == Self.stream, "pieces of \(size)")
        }
    }

    /// A stream cut inside a chunk's bytes is truncated by all it holds.
    @Test func truncatedInsideTheBytes() throws {
        let bytes = FrameEncoder.encode(Self.chunk)
        for cut in [26, 300, bytes.count - 5, bytes.count - 1] {
            var decoder = FrameDecoder()
            decoder.append(bytes.prefix(30))
            #expect(try decoder.next() == nil)
            decoder.append(bytes[30..<max(cut, 30)])
            #expect(try decoder.next() == nil)
            #expect(decoder.bufferedByteCount == max(cut, 30))
            #expect(frameError { try decoder.finish() } == .truncated(bufferedBytes: max(cut, 30)))
        }
    }

    /// A header that changed on the way is refused once the trailer is in, as when it arrives whole.
    @Test func badChecksumWhenGathered() {
        var bytes = FrameEncoder.encode(Self.chunk)
        let carried = bytes.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        bytes[4 + 1 + 3] ^= 0x40
        let actual = CRC32C.checksum(bytes[4..<(4 + FrameFormat.fileChunkCheckedLength)])
        #expect(frameError { _ = try decode([Array(bytes.prefix(40)), Array(bytes.dropFirst(40))]) }
            == .badChecksum(expected: carried, actual: actual))
    }

    /// A count that does not match the length field is refused as when the frame arrives whole.
    @Test func inconsistentCountTakesTheUsualPath() {
        var bytes = FrameEncoder.encode(Self.chunk)
        bytes[4 + 1 + 16 + 3] ^= 0x01
        let whole = frameError { _ = try decodeAll(bytes) }
        #expect(whole != nil)
        #expect(frameError { _ = try decode([Array(bytes.prefix(40)), Array(bytes.dropFirst(40))]) } == whole)
    }

    private func decode(_ pieces: [[UInt8]]) throws(FrameError) -> [Frame] {
        var decoder = FrameDecoder()
        var frames: [Frame] = []
        for piece in pieces {
            decoder.append(piece)
            while let frame = try decoder.next() { frames.append(frame) }
        }
        try decoder.finish()
        #expect(decoder.bufferedByteCount == 0)
        return frames
    }
}
