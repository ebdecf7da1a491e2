import Foundation
import Testing
import WatchPairWire

@Suite struct FrameDecoderTests {
    static let stream: [Frame] = [
        .hello(FrameRoundTripTests.hello),
        .message(id: 1, wantsReply: true, body: .dictionary(["q": .string("é?"), "n": .integer(3)])),
        .ping(nonce: 1),
        .userInfo(seq: 1, after: 0, transferId: uuidA, payload: ["k": .data(Data([1, 2]))]),
        .reply(id: 1, body: .data(Data([9]))),
        .pong(nonce: 1),
    ]
    static let streamBytes = stream.flatMap(FrameEncoder.encode)

    @Test func severalFramesInOneChunk() throws {
        #expect(try decodeAll(Self.streamBytes) == Self.stream)
    }

    @Test func splitAtEveryByteBoundary() throws {
        let bytes = Self.streamBytes
        for split in 0...bytes.count {
            var decoder = FrameDecoder()
            var frames: [Frame] = []
            decoder.append(bytes[..<split])
            while let frame = try decoder.next() { frames.append(frame) }
            decoder.append(bytes[split...])
            while let frame = try decoder.next() { frames.append(frame) }
            try decoder.finish()
            #expect(frames == Self.stream, "split at \(split)")
        }
    }

    @Test func oneByteAtATime() throws {
        var decoder = FrameDecoder()
        var frames: [Frame] = []
        for byte in Self.streamBytes {
            decoder.append(CollectionOfOne(byte))
            while let frame = try decoder.next() { frames.append(frame) }
            #expect(decoder.bufferedByteCount < FrameFormat.headerLength + 200)
        }
        try decoder.finish()
        #expect(frames == Self.stream)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func bufferHoldsOnlyTheUndecodedTail() throws {
        var decoder = FrameDecoder()
        let one = FrameEncoder.encode(.ping(nonce: 5))
        decoder.append(one + one.prefix(3))
        #expect(decoder.bufferedByteCount == one.count + 3)
        #expect(try decoder.next() == .ping(nonce: 5))
        #expect(decoder.bufferedByteCount == 3)
        #expect(try decoder.next() == nil)
        decoder.append(one.dropFirst(3))
        #expect(decoder.bufferedByteCount == one.count)
        #expect(try decoder.next() == .ping(nonce: 5))
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func truncatedAtEndOfStream() throws {
        let bytes = FrameEncoder.encode(.context(version: 1, payload: ["a": .integer(1)]))
        for cut in 1..<bytes.count {
            var decoder = FrameDecoder()
            decoder.append(bytes.prefix(cut))
            #expect(try decoder.next() == nil)
            #expect(frameError { try decoder.finish() } == .truncated(bufferedBytes: cut))
        }
        var empty = FrameDecoder()
        #expect(try empty.next() == nil)
        try empty.finish()
    }

    @Test func zeroLength() {
        #expect(frameError { _ = try decodeAll([0, 0, 0, 0]) } == .badLength(0))
    }

    /// Only the 4-byte length of a huge frame arrives: rejected at once, the body is never awaited.
    @Test func tooLargeIsCheckedFromTheHeaderAlone() {
        var decoder = FrameDecoder()
        decoder.append(be32(UInt32(FrameFormat.defaultMaxFrameLength + 1)) + [0x02])
        #expect(frameError { _ = try decoder.next() }
            == .tooLarge(length: FrameFormat.defaultMaxFrameLength + 1, limit: FrameFormat.defaultMaxFrameLength))
        var huge = FrameDecoder()
        huge.append([0xFF, 0xFF, 0xFF, 0xFF])
        #expect(frameError { _ = try huge.next() } == .tooLarge(length: Int(UInt32.max), limit: 1 << 20))
        #expect(FrameError.tooLarge(length: 1, limit: 0).code == .payloadTooLarge)
    }

    @Test func limitIsInclusiveAndConfigurable() throws {
        let frame = Frame.message(id: 1, wantsReply: false, body: .data(Data(repeating: 1, count: 100)))
        let bytes = FrameEncoder.encode(frame)
        let length = bytes.count - 8
        #expect(try decodeAll(bytes, maxFrameLength: length) == [frame])
        #expect(frameError { _ = try decodeAll(bytes, maxFrameLength: length - 1) }
            == .tooLarge(length: length, limit: length - 1))
        // Exactly the default limit is accepted.
        let big = Frame.message(id: 1, wantsReply: false, body: .data(Data(repeating: 2, count: (1 << 20) - 1 - 8 - 1 - 4)))
        let bigBytes = FrameEncoder.encode(big)
        #expect(bigBytes.count - 8 == 1 << 20)
        #expect(try decodeAll(bigBytes) == [big])
    }

    @Test func badChecksum() {
        var bytes = FrameEncoder.encode(.ack(upTo: 77))
        let carried = bytes.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        bytes[6] ^= 0x10
        let actual = CRC32C.checksum(bytes[4..<(bytes.count - 4)])
        #expect(frameError { _ = try decodeAll(bytes) } == .badChecksum(expected: carried, actual: actual))
    }

    @Test("a fileChunk's trailer covers its header, not its bytes: those are checked end to end by the file's checksum")
    func fileChunkChecksum() {
        let chunk = Frame.fileChunk(seq: 3, offset: 65_536, bytes: Data((0..<300).map { UInt8(truncatingIfNeeded: $0) }))
        var bytes = FrameEncoder.encode(chunk)
        let carried = bytes.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        #expect(carried == CRC32C.checksum(bytes[4..<(4 + FrameFormat.fileChunkCheckedLength)]))
        // A byte of the chunk changed on the way: the frame decodes; the receiver's running CRC catches it.
        var flipped = bytes
        flipped[4 + FrameFormat.fileChunkCheckedLength + 7] ^= 0xFF
        guard case .fileChunk(3, 65_536, let received)? = try? decodeAll(flipped).first else {
            Issue.record("the chunk did not decode")
            return
        }
        #expect(received.count == 300 && received[7] == 0xF8)
        // Its offset changed: the frame is refused.
        bytes[4 + 1 + 8 + 7] ^= 0x01
        let actual = CRC32C.checksum(bytes[4..<(4 + FrameFormat.fileChunkCheckedLength)])
        #expect(frameError { _ = try decodeAll(bytes) } == .badChecksum(expected: carried, actual: actual))
    }

    @Test func unknownType() {
        for type: UInt8 in [0, 17, 0x7F, 0xFF] {
            #expect(frameError { _ = try decodeAll(rawFrame(type: type, body: be64(1))) } == .unknownType(type))
        }
    }

    @Test func unsupportedVersionIsToldApart() {
        let v6 = be16(6) + [1, 1] + lp("p") + uuidBytes(uuidA) + [0] + [UInt8](repeating: 0, count: 16)
            + be64(0) + be64(0) + Array("a future field".utf8)
        #expect(frameError { _ = try decodeAll(rawFrame(type: 1, body: v6)) } == .unsupportedVersion(6))
        // Version 4 checked a file chunk's bytes in its frame: refused at the hello.
        let v4 = be16(4) + [1, 1] + lp("p") + uuidBytes(uuidA) + [0] + [UInt8](repeating: 0, count: 16) + be64(0) + be64(0)
        #expect(frameError { _ = try decodeAll(rawFrame(type: 1, body: v4)) } == .unsupportedVersion(4))
        // Version 3 had no launch frame: refused at the hello.
        let v3 = be16(3) + [1, 1] + lp("p") + uuidBytes(uuidA) + [0] + [UInt8](repeating: 0, count: 16) + be64(0) + be64(0)
        #expect(frameError { _ = try decodeAll(rawFrame(type: 1, body: v3)) } == .unsupportedVersion(3))
        // Version 2 had no complication frames: refused at the hello, not when its first one arrives.
        let v2 = be16(2) + [1, 1] + lp("p") + uuidBytes(uuidA) + [0] + [UInt8](repeating: 0, count: 16) + be64(0) + be64(0)
        #expect(frameError { _ = try decodeAll(rawFrame(type: 1, body: v2)) } == .unsupportedVersion(2))
        // Version 1 had no file frames: a peer speaking it is refused, not half understood.
        let v1 = be16(1) + [1, 1] + lp("p") + uuidBytes(uuidA) + [0] + [UInt8](repeating: 0, count: 16) + be64(0) + be64(0)
        #expect(frameError { _ = try decodeAll(rawFrame(type: 1, body: v1)) } == .unsupportedVersion(1))
        #expect(frameError { _ = try decodeAll(rawFrame(type: 1, body: be16(0))) } == .unsupportedVersion(0))
        #expect(frameError { _ = try decodeAll(rawFrame(type: 1, body: be16(0xFFFF))) } == .unsupportedVersion(0xFFFF))
        #expect(frameError { _ = try decodeAll(rawFrame(type: 1, body: [1])) } == .malformed(frameType: 1, reason: .shortBody))
    }

    static let helloTail = lp("p") + uuidBytes(uuidA)
    static let zeros16 = [UInt8](repeating: 0, count: 16)
    static let emptyDict: [UInt8] = [0x08, 0, 0, 0, 0]

    @Test(arguments: [
        // hello
        (1, be16(5) + [3, 1] + helloTail + [0] + zeros16 + be64(0) + be64(0), MalformedReason.invalidRole(3)),
        (1, be16(5) + [0, 1] + helloTail + [0] + zeros16 + be64(0) + be64(0), .invalidRole(0)),
        (1, be16(5) + [1, 0] + helloTail + [0] + zeros16 + be64(0) + be64(0), .invalidLaunchMode(0)),
        (1, be16(5) + [1, 1] + helloTail + [2] + zeros16 + be64(0) + be64(0), .invalidBool(2)),
        (1, be16(5) + [1, 1] + helloTail + [0] + [1] + zeros16.dropFirst() + be64(0) + be64(0), .nonZeroPadding),
        (1, be16(5) + [1, 1] + helloTail + [0] + zeros16 + be64(0), .shortBody),
        (1, be16(5) + [1, 1] + helloTail + [0] + zeros16 + be64(0) + be64(0) + [0], .trailingBytes(count: 1)),
        (1, be16(5) + [1, 1] + be32(1) + [0xFF] + uuidBytes(uuidA) + [0] + zeros16 + be64(0) + be64(0), .invalidUTF8),
        (1, be16(5) + [1, 1] + be32(0xFFFF_FFFF), .shortBody),
        // message
        (2, be64(1) + [0x04] + emptyDict, .invalidFlags(4)),
        (2, be64(1) + [0x80] + emptyDict, .invalidFlags(0x80)),
        (2, be64(1) + [0x00] + [0x07, 0, 0, 0, 0], .expectedDictionary),
        (2, be64(1) + [0x00] + [0x63], .invalidPlistTag(0x63)),
        (2, be64(1) + [0x00] + emptyDict + [0], .trailingBytes(count: 1)),
        (2, be64(1) + [0x02] + be32(5) + [1, 2], .shortBody),
        (2, be64(1) + [0x02] + be32(1) + [1, 2], .trailingBytes(count: 1)),
        (2, be64(1), .shortBody),
        (2, [], .shortBody),
        // reply
        (3, be64(1) + [2] + emptyDict, .invalidBodyKind(2)),
        (3, be64(1) + [0] + [0x08, 0, 0, 0, 1, 0, 0, 0, 1, 0x61, 0x04, 7], .invalidBool(7)),
        // error
        (4, be64(0) + be16(7002) + lp("x"), .unknownErrorCode(7002)),
        (4, be64(0) + be16(0) + lp("x"), .unknownErrorCode(0)),
        (4, be64(0) + be16(7008) + be32(2) + [0xC0, 0x80], .invalidUTF8),
        (4, be64(0) + be16(7008), .shortBody),
        // userInfo
        (5, be64(1) + be64(0) + uuidBytes(uuidA), .shortBody),
        (5, be64(1) + be64(0) + uuidBytes(uuidA) + [0x01, 0, 0, 0, 0], .expectedDictionary),
        (5, be64(1) + be64(0) + uuidBytes(uuidA) + [0x08, 0, 0, 0, 2, 0, 0, 0, 1, 0x61, 0x04, 1, 0, 0, 0, 1, 0x61, 0x04, 0], .duplicateKey),
        (5, be64(1) + be64(0) + uuidBytes(uuidA) + [0x08, 0, 0, 0, 2, 0, 0, 0, 1, 0x62, 0x04, 1, 0, 0, 0, 1, 0x61, 0x04, 0], .unsortedKeys),
        (5, be64(1) + be64(0) + uuidBytes(uuidA) + Array(repeating: [0x08, 0, 0, 0, 1, 0, 0, 0, 0], count: 65).joined() + emptyDict, .nestingTooDeep),
        // launch
        (16, [0], .invalidLaunchMode(0)),
        (16, [3], .invalidLaunchMode(3)),
        (16, [], .shortBody),
        (16, [1, 1], .trailingBytes(count: 1)),
        // ack, context, contextAck, ping, pong
        (6, be64(1) + [0], .trailingBytes(count: 1)),
        (6, [1, 2, 3], .shortBody),
        (7, be64(1), .shortBody),
        (7, be64(1) + emptyDict + emptyDict, .trailingBytes(count: 5)),
        (8, [], .shortBody),
        (9, be64(1) + be64(1), .trailingBytes(count: 8)),
        (10, be32(1), .shortBody),
        // fileOffer: names that would leave the receiver's directory, bad flags, short and long bodies
        (11, be64(1) + be64(0) + uuidBytes(uuidA) + lp("") + be64(1) + be32(0) + [0], .invalidFileName),
        (11, be64(1) + be64(0) + uuidBytes(uuidA) + lp(".") + be64(1) + be32(0) + [0], .invalidFileName),
        (11, be64(1) + be64(0) + uuidBytes(uuidA) + lp("..") + be64(1) + be32(0) + [0], .invalidFileName),
        (11, be64(1) + be64(0) + uuidBytes(uuidA) + lp("a/b") + be64(1) + be32(0) + [0], .invalidFileName),
        (11, be64(1) + be64(0) + uuidBytes(uuidA) + lp("a\u{0}b") + be64(1) + be32(0) + [0], .invalidFileName),
        (11, be64(1) + be64(0) + uuidBytes(uuidA) + lp(String(repeating: "x", count: 256)) + be64(1) + be32(0) + [0], .invalidFileName),
        (11, be64(1) + be64(0) + uuidBytes(uuidA) + lp("a") + be64(1) + be32(0) + [2], .invalidBool(2)),
        (11, be64(1) + be64(0) + uuidBytes(uuidA) + lp("a") + be64(1) + be32(0) + [1], .shortBody),
        (11, be64(1) + be64(0) + uuidBytes(uuidA) + lp("a") + be64(1) + be32(0) + [1] + [0x01, 0, 0, 0, 0], .expectedDictionary),
        (11, be64(1) + be64(0) + uuidBytes(uuidA) + lp("a") + be64(1) + be32(0) + [0] + emptyDict, .trailingBytes(count: 5)),
        (11, be64(1) + be64(0) + uuidBytes(uuidA) + lp("a") + be64(1), .shortBody),
        // fileChunk, fileAck, fileEnd
        (12, be64(1) + be64(0) + be32(4) + [1, 2], .shortBody),
        (12, be64(1) + be64(0) + be32(1) + [1, 2], .trailingBytes(count: 1)),
        (13, be64(1), .shortBody),
        (13, be64(1) + be64(2) + [0], .trailingBytes(count: 1)),
        (14, be64(1) + [0], .invalidFileStatus(0)),
        (14, be64(1) + [4], .invalidFileStatus(4)),
        (14, be64(1), .shortBody),
    ] as [(UInt8, [UInt8], MalformedReason)])
    func malformedBodies(type: UInt8, body: [UInt8], reason: MalformedReason) {
        #expect(frameError { _ = try decodeAll(rawFrame(type: type, body: body)) }
            == .malformed(frameType: type, reason: reason))
    }

    /// A payload nested exactly to the limit is accepted.
    @Test func nestingAtTheLimit() throws {
        let body = be64(1) + be64(0) + uuidBytes(uuidA) + Array(repeating: [0x08, 0, 0, 0, 1, 0, 0, 0, 0], count: 63).joined() + Self.emptyDict
        let frames = try decodeAll(rawFrame(type: 5, body: body))
        guard case .userInfo(_, _, _, let payload) = frames.first else { Issue.record("not userInfo"); return }
        #expect(PlistCodec.nestingDepth(of: .dictionary(payload)) == 64)
    }

    @Test func poisoning() throws {
        var decoder = FrameDecoder()
        let good = FrameEncoder.encode(.ping(nonce: 1))
        var bad = FrameEncoder.encode(.ping(nonce: 2))
        bad[bad.count - 1] ^= 1
        decoder.append(good + bad + good)
        #expect(try decoder.next() == .ping(nonce: 1))
        let first = frameError { _ = try decoder.next() }
        guard case .badChecksum = first else { Issue.record("expected badChecksum, got \(String(describing: first))"); return }
        #expect(decoder.bufferedByteCount == 0)
        // Valid bytes after the error are not decoded: every call throws the same error.
        decoder.append(good)
        #expect(decoder.bufferedByteCount == 0)
        for _ in 0..<3 {
            #expect(frameError { _ = try decoder.next() } == first)
        }
        #expect(frameError { try decoder.finish() } == first)
    }

    @Test func poisoningByMalformedBody() {
        var decoder = FrameDecoder()
        decoder.append(rawFrame(type: 6, body: [1]) + FrameEncoder.encode(.ack(upTo: 1)))
        #expect(frameError { _ = try decoder.next() } == .malformed(frameType: 6, reason: .shortBody))
        #expect(frameError { _ = try decoder.next() } == .malformed(frameType: 6, reason: .shortBody))
    }

    @Test func limitIsClamped() {
        #expect(FrameDecoder(maxFrameLength: 0).maxFrameLength == 1)
        #expect(FrameDecoder(maxFrameLength: .max).maxFrameLength == Int(UInt32.max))
        #expect(FrameDecoder().maxFrameLength == FrameFormat.defaultMaxFrameLength)
    }
}
