import Foundation
import Testing
import WatchPairTesting
import WatchPairWire

@Suite("EncodedDictionary: a payload encoded once, carried as its bytes")
struct EncodedDictionaryTests {
    static let dictionaries: [PlistDictionary] = [
        [:],
        ["n": .integer(1)],
        richDictionary,
        ["b": .bool(true), "a": .array([.dictionary(["z": .data(Data()), "y": .double(-0.0)])])],
        ["é": .string("e\u{301}"), "e\u{301}x": .date(Date(timeIntervalSinceReferenceDate: -1))],
    ]

    /// Bytes received from a peer, once validated, are exactly the encoding of the dictionary they decode to.
    @Test(arguments: dictionaries)
    func receivedBytesAreTheEncodingOfTheirDictionary(_ dictionary: PlistDictionary) throws {
        let sent = try EncodedDictionary(dictionary)
        let received = try EncodedDictionary(validating: sent.bytes)
        #expect(received == sent)
        #expect(try EncodedDictionary(received.dictionary).bytes == received.bytes)
        #expect(received.bytes == PlistCodec.encode(dictionary))
        #expect(sent.byteCount == PlistCodec.encodedSize(dictionary), "the limits measure the same size as before")
    }

    /// Random payloads: the same, and a userInfo frame carries the bytes unchanged in both directions.
    @Test(arguments: 0..<50)
    func randomPayloadsThroughAFrame(seed: Int) throws {
        var generator = PlistGenerator(rng: TestRandom(seed: UInt64(seed) &+ 0x5EED))
        let dictionary = generator.dictionary(depth: 3)
        let payload = try EncodedDictionary(dictionary)
        let wire = FrameEncoder.encode(.userInfo(seq: 1, after: 0, transferId: uuidA, payload: payload))
        // Header (length, type), seq, after, transferId; then the payload; then the checksum.
        let payloadStart = 4 + 1 + 8 + 8 + 16
        #expect(Array(wire[payloadStart..<(wire.count - 4)]) == payload.bytes)
        guard case .userInfo(_, _, _, let decoded) = try decodeAll(wire).first else {
            Issue.record("not a userInfo frame")
            return
        }
        #expect(decoded.bytes == payload.bytes)
        #expect(try EncodedDictionary(decoded.dictionary).bytes == decoded.bytes)
    }

    /// Validation is the codec's strict decoding: the same errors, nothing kept.
    @Test(arguments: [
        ([0x07, 0, 0, 0, 0], MalformedReason.expectedDictionary),
        ([0x08, 0, 0, 0, 2, 0, 0, 0, 1, 0x62, 0x04, 1, 0, 0, 0, 1, 0x61, 0x04, 0], .unsortedKeys),
        ([0x08, 0, 0, 0, 1, 0, 0, 0, 1, 0x61, 0x04, 2], .invalidBool(2)),
        ([0x08, 0, 0, 0, 0, 0], .trailingBytes(count: 1)),
    ] as [([UInt8], MalformedReason)])
    func validationRejectsWhatTheCodecRejects(bytes: [UInt8], reason: MalformedReason) {
        #expect(throws: FrameError.malformed(frameType: 0, reason: reason)) { try EncodedDictionary(validating: bytes) }
        #expect(throws: FrameError.malformed(frameType: 0, reason: reason)) { try PlistCodec.decodeDictionary(bytes) }
    }

    /// A payload that could never be decoded again is not encoded.
    @Test func tooDeepIsRefused() {
        var deep: PlistDictionary = [:]
        for _ in 0..<PlistCodec.maxNestingDepth { deep = ["d": .dictionary(deep)] }
        #expect(throws: FrameError.malformed(frameType: 0, reason: .nestingTooDeep)) { try EncodedDictionary(deep) }
        var atLimit: PlistDictionary = [:]
        for _ in 0..<(PlistCodec.maxNestingDepth - 1) { atLimit = ["d": .dictionary(atLimit)] }
        #expect(throws: Never.self) { try EncodedDictionary(atLimit) }
    }
}
