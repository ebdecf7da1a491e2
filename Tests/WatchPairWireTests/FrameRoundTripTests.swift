import Foundation
import Testing
import WatchPairTesting
import WatchPairWire

@Suite struct FrameRoundTripTests {
    static let hello = Hello(
        role: .watch, pairId: "pair-✓", storeId: uuidA, launch: .background,
        resume: ResumeState(peerStoreId: uuidB, lastUserInfoSeq: 41, contextVersion: .max))

    static let frames: [Frame] = [
        .hello(hello),
        .hello(Hello(role: .phone, pairId: "", storeId: uuidB, launch: .foreground,
                     resume: ResumeState(peerStoreId: nil, lastUserInfoSeq: 0, contextVersion: 0))),
        .message(id: 1, wantsReply: true, body: .dictionary(richDictionary)),
        .message(id: .max, wantsReply: false, body: .dictionary([:])),
        .message(id: 7, wantsReply: true, body: .data(Data([1, 2, 3]))),
        .message(id: 8, wantsReply: false, body: .data(Data())),
        .reply(id: 1, body: .dictionary(["ok": .bool(true)])),
        .reply(id: 2, body: .data(Data(repeating: 7, count: 65_536))),
        .error(relatesTo: 0, code: .invalidParameter, reason: "Bad frame."),
        .error(relatesTo: 9, code: .deliveryFailed, reason: ""),
        .userInfo(seq: 1, after: 0, transferId: uuidA, payload: richDictionary),
        .userInfo(seq: .max, after: 0, transferId: uuidB, payload: [:]),
        .complicationUserInfo(seq: 2, after: 1, transferId: uuidB, payload: try! EncodedDictionary(richDictionary)),
        .ack(upTo: 0), .ack(upTo: 123_456_789),
        .context(version: 3, payload: ["mode": .string("run")]),
        .context(version: 4, payload: [:]),
        .contextAck(version: 3),
        .ping(nonce: 0xDEAD_BEEF), .pong(nonce: 0xDEAD_BEEF),
        .fileOffer(offer),
        .fileOffer(FileOffer(seq: .max, after: .max - 1, transferId: uuidB, fileName: String(repeating: "é", count: 127),
                             size: .max, checksum: .max, metadata: try! EncodedDictionary([:]))),
        .fileChunk(seq: 1, offset: 0, bytes: Data()),
        .fileChunk(seq: 2, offset: .max, bytes: Data(repeating: 0xA5, count: 65_536)),
        .fileAck(seq: 1, offset: 0), .fileAck(seq: .max, offset: 1 << 40),
        .fileEnd(seq: 1, status: .received), .fileEnd(seq: 2, status: .cancelled), .fileEnd(seq: 3, status: .corrupt),
    ]

    static let offer = FileOffer(
        seq: 3, after: 2, transferId: uuidA, fileName: "run 1.fit", size: 5_000_000, checksum: 0xE306_9283,
        metadata: try! EncodedDictionary(["kind": .string("workout")]))

    @Test(arguments: frames)
    func roundTrip(frame: Frame) throws {
        let bytes = FrameEncoder.encode(frame)
        #expect(try decodeAll(bytes) == [frame])
        // Header and trailer as documented.
        let length = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        #expect(length == bytes.count - 8)
        #expect(bytes[4] == frame.type.rawValue)
        let crc = bytes.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        #expect(crc == CRC32C.checksum(bytes[4..<(4 + FrameFormat.checkedLength(type: bytes[4], length: length))]))
    }

    @Test(arguments: WCErrorCode.allCases)
    func everyErrorCodeRoundTrips(code: WCErrorCode) throws {
        let frame = Frame.error(relatesTo: 5, code: code, reason: code.name)
        #expect(try decodeAll(FrameEncoder.encode(frame)) == [frame])
    }

    @Test func typeBytes() {
        let expected: [FrameType: UInt8] = [
            .hello: 1, .message: 2, .reply: 3, .error: 4, .userInfo: 5,
            .ack: 6, .context: 7, .contextAck: 8, .ping: 9, .pong: 10,
            .fileOffer: 11, .fileChunk: 12, .fileAck: 13, .fileEnd: 14, .complicationUserInfo: 15, .launch: 16,
        ]
        #expect(FrameType.allCases.count == expected.count)
        #expect(FileEndStatus.allCases.map(\.rawValue) == [1, 2, 3])
        #expect(Hello.currentProtocolVersion == 5)
        for type in FrameType.allCases { #expect(type.rawValue == expected[type]) }
        #expect(FrameFormat.headerLength == 5)
        #expect(FrameFormat.trailerLength == 4)
        #expect(FrameFormat.defaultMaxFrameLength == 1_048_576)
    }

    /// The documented layouts, byte for byte, built by hand.
    @Test func goldenLayouts() {
        #expect(FrameEncoder.encode(.ping(nonce: 0x0102_0304_0506_0708)) == rawFrame(type: 9, body: [1, 2, 3, 4, 5, 6, 7, 8]))
        #expect(FrameEncoder.encode(.ack(upTo: 5)) == rawFrame(type: 6, body: be64(5)))
        #expect(FrameEncoder.encode(.hello(Self.hello)) == rawFrame(type: 1, body:
            be16(5) + [2, 2] + lp("pair-✓") + uuidBytes(uuidA) + [1] + uuidBytes(uuidB) + be64(41) + be64(.max)))
        #expect(FrameEncoder.encode(.hello(Hello(role: .phone, pairId: "p", storeId: uuidA, launch: .foreground,
            resume: ResumeState(peerStoreId: nil, lastUserInfoSeq: 0, contextVersion: 2)))) == rawFrame(type: 1, body:
            be16(5) + [1, 1] + lp("p") + uuidBytes(uuidA) + [0] + [UInt8](repeating: 0, count: 16) + be64(0) + be64(2)))
        #expect(FrameEncoder.encode(.message(id: 3, wantsReply: true, body: .dictionary(["a": .bool(true)])))
            == rawFrame(type: 2, body: be64(3) + [0x01] + PlistCodec.encode(["a": .bool(true)])))
        #expect(FrameEncoder.encode(.message(id: 3, wantsReply: false, body: .data(Data([7]))))
            == rawFrame(type: 2, body: be64(3) + [0x02] + be32(1) + [7]))
        #expect(FrameEncoder.encode(.message(id: 3, wantsReply: true, body: .data(Data([7]))))
            == rawFrame(type: 2, body: be64(3) + [0x03] + be32(1) + [7]))
        #expect(FrameEncoder.encode(.reply(id: 4, body: .data(Data([7])))) == rawFrame(type: 3, body: be64(4) + [1] + be32(1) + [7]))
        #expect(FrameEncoder.encode(.reply(id: 4, body: .dictionary([:]))) == rawFrame(type: 3, body: be64(4) + [0] + PlistCodec.encode([:])))
        #expect(FrameEncoder.encode(.error(relatesTo: 6, code: .notReachable, reason: "x"))
            == rawFrame(type: 4, body: be64(6) + be16(7007) + lp("x")))
        #expect(FrameEncoder.encode(.userInfo(seq: 9, after: 0, transferId: uuidB, payload: [:]))
            == rawFrame(type: 5, body: be64(9) + be64(0) + uuidBytes(uuidB) + [0x08, 0, 0, 0, 0]))
        // A complication transfer is a userInfo body under its own type byte.
        #expect(FrameEncoder.encode(.complicationUserInfo(seq: 9, after: 0, transferId: uuidB, payload: try! EncodedDictionary([:])))
            == rawFrame(type: 15, body: be64(9) + be64(0) + uuidBytes(uuidB) + [0x08, 0, 0, 0, 0]))
        #expect(FrameEncoder.encode(.context(version: 2, payload: [:])) == rawFrame(type: 7, body: be64(2) + [0x08, 0, 0, 0, 0]))
        // The sender's new launch mode: one byte, 1 foreground, 2 background (protocol version 4).
        #expect(FrameEncoder.encode(.launch(.foreground)) == rawFrame(type: 16, body: [1]))
        #expect(FrameEncoder.encode(.launch(.background)) == rawFrame(type: 16, body: [2]))
        #expect(FrameEncoder.encode(.contextAck(version: 2)) == rawFrame(type: 8, body: be64(2)))
        #expect(FrameEncoder.encode(.pong(nonce: 1)) == rawFrame(type: 10, body: be64(1)))
        #expect(FrameEncoder.encode(.fileOffer(Self.offer)) == rawFrame(type: 11, body:
            be64(3) + be64(2) + uuidBytes(uuidA) + lp("run 1.fit") + be64(5_000_000) + be32(0xE306_9283) + [1]
            + PlistCodec.encode(["kind": .string("workout")])))
        var bare = Self.offer
        bare.metadata = nil
        #expect(FrameEncoder.encode(.fileOffer(bare)) == rawFrame(type: 11, body:
            be64(3) + be64(2) + uuidBytes(uuidA) + lp("run 1.fit") + be64(5_000_000) + be32(0xE306_9283) + [0]))
        #expect(FrameEncoder.encode(.fileChunk(seq: 3, offset: 9, bytes: Data([7, 8])))
            == rawFrame(type: 12, body: be64(3) + be64(9) + be32(2) + [7, 8]))
        #expect(FrameEncoder.encode(.fileAck(seq: 3, offset: 11)) == rawFrame(type: 13, body: be64(3) + be64(11)))
        #expect(FrameEncoder.encode(.fileEnd(seq: 3, status: .corrupt)) == rawFrame(type: 14, body: be64(3) + [3]))
        // The smallest frame: ping, 4 + 1 + 8 + 4 bytes; its first bytes.
        #expect(Array(FrameEncoder.encode(.ping(nonce: 0)).prefix(5)) == [0, 0, 0, 9, 9])
    }

    @Test func randomFramesRoundTrip() throws {
        var generator = PlistGenerator(rng: TestRandom(seed: 21))
        for _ in 0..<300 {
            let bytes = FrameEncoder.encode(generator.frame())
            let decoded = try decodeAll(bytes)
            #expect(decoded.count == 1)
            #expect(decoded.map(FrameEncoder.encode) == [bytes])
        }
    }
}
