import Foundation
import Testing
import WatchPairTesting
import WatchPairWire

@Suite struct PlistCodecTests {
    static let values: [PlistValue] = [
        .string(""), .string("ascii"), .string("héllo ✓ 🍎 日本 \u{0} e\u{301}"),
        .integer(0), .integer(-1), .integer(.min), .integer(.max),
        .double(0), .double(-0.0), .double(1.5), .double(.infinity), .double(-.infinity),
        .double(.leastNonzeroMagnitude), .double(.greatestFiniteMagnitude), .double(.nan),
        .double(Double(bitPattern: 0x7FF4_0000_0000_0001)),  // a signalling NaN with a payload
        .bool(true), .bool(false),
        .date(Date(timeIntervalSinceReferenceDate: 0)), .date(.distantPast), .date(.distantFuture),
        .date(Date(timeIntervalSinceReferenceDate: 737_000_000.123_456_7)),
        .date(Date(timeIntervalSinceReferenceDate: -1e-7)),
        .data(Data()), .data(Data([0, 0xFF])), .data(Data(repeating: 0xA5, count: 300_000)),
        .array([]), .dictionary([:]), .array([.array([.array([])])]),
        .dictionary(richDictionary),
        .array([.dictionary(richDictionary), .dictionary(["": .string("empty key")])]),
    ]

    @Test(arguments: values)
    func roundTripIsBitExact(value: PlistValue) throws {
        let bytes = PlistCodec.encode(value)
        let decoded = try PlistCodec.decode(bytes)
        #expect(PlistCodec.encode(decoded) == bytes)
        #expect(bitEqual(decoded, value))
        if !containsNaN(value) { #expect(decoded == value) }
        #expect(PlistCodec.encodedSize(value) == bytes.count)
    }

    @Test func floatingPointBitsSurvive() throws {
        for bits: UInt64 in [0x8000_0000_0000_0000, 0x7FF8_0000_0000_0000, 0x7FF4_0000_0000_0001, 0xFFF0_0000_0000_0000, 1] {
            guard case .double(let d) = try PlistCodec.decode(PlistCodec.encode(.double(Double(bitPattern: bits)))) else {
                Issue.record("not a double"); continue
            }
            #expect(d.bitPattern == bits)
            guard case .date(let date) = try PlistCodec.decode(PlistCodec.encode(.date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits))))) else {
                Issue.record("not a date"); continue
            }
            #expect(date.timeIntervalSinceReferenceDate.bitPattern == bits)
        }
    }

    /// The documented layout, byte for byte.
    @Test func goldenEncoding() {
        #expect(PlistCodec.encode(.integer(-2)) == [0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE])
        #expect(PlistCodec.encode(.double(1.0)) == [0x03, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0])
        #expect(PlistCodec.encode(.bool(true)) == [0x04, 0x01])
        #expect(PlistCodec.encode(.date(Date(timeIntervalSinceReferenceDate: -1))) == [0x05, 0xBF, 0xF0, 0, 0, 0, 0, 0, 0])
        #expect(PlistCodec.encode(.data(Data([9]))) == [0x06, 0, 0, 0, 1, 9])
        #expect(PlistCodec.encode(.array([.string("é")])) == [0x07, 0, 0, 0, 1, 0x01, 0, 0, 0, 2, 0xC3, 0xA9])
        #expect(PlistCodec.encode(["b": .bool(false), "a": .bool(true)])
            == [0x08, 0, 0, 0, 2, 0, 0, 0, 1, 0x61, 0x04, 1, 0, 0, 0, 1, 0x62, 0x04, 0])
        #expect(PlistCodec.encode(["k": .integer(1)]) == PlistCodec.encode(.dictionary(["k": .integer(1)])))
    }

    /// Equal dictionaries built in different orders encode identically, keys sorted by UTF-8 bytes.
    @Test func dictionaryEncodingIsDeterministic() {
        var rng = TestRandom(seed: 11)
        let keys = ["b", "a", "ab", "B", "", "é", "z", "🍎", "aa", "\u{7F}"]
        var reference: [UInt8]?
        for _ in 0..<50 {
            var d: PlistDictionary = [:]
            for key in keys.shuffled(using: &rng) { d[key] = .string(key) }
            let bytes = PlistCodec.encode(d)
            if let reference { #expect(bytes == reference) } else { reference = bytes }
        }
        // Order on the wire: "", "B", "a", "aa", "ab", "b", "z", DEL, "é", "🍎".
        guard let reference, case .dictionary(let decoded) = try? PlistCodec.decode(reference) else {
            Issue.record("no reference"); return
        }
        #expect(decoded.count == keys.count)
        #expect(Array(reference[5..<9]) == [0, 0, 0, 0])  // the empty key comes first
    }

    @Test func encodedSizeMatchesForRandomValues() {
        var generator = PlistGenerator(rng: TestRandom(seed: 3))
        for _ in 0..<500 {
            let value = generator.value(depth: 4)
            #expect(PlistCodec.encodedSize(value) == PlistCodec.encode(value).count)
        }
        #expect(PlistCodec.encodedSize(richDictionary) == PlistCodec.encode(richDictionary).count)
    }

    @Test func randomValuesRoundTrip() throws {
        var generator = PlistGenerator(rng: TestRandom(seed: 4))
        for _ in 0..<500 {
            let value = generator.value(depth: 5)
            let bytes = PlistCodec.encode(value)
            #expect(PlistCodec.encode(try PlistCodec.decode(bytes)) == bytes)
        }
    }

    @Test func nestingLimit() throws {
        #expect(PlistCodec.maxNestingDepth == 64)
        let deepest = nested(64)
        #expect(PlistCodec.nestingDepth(of: deepest) == 64)
        #expect(PlistCodec.nestingDepth(of: .string("x")) == 0)
        #expect(bitEqual(try PlistCodec.decode(PlistCodec.encode(deepest)), deepest))
        let tooDeep = PlistValue.dictionary(["k": nested(64)])
        #expect(frameError { _ = try PlistCodec.decode(PlistCodec.encode(tooDeep)) }
            == .malformed(frameType: 0, reason: .nestingTooDeep))
    }

    /// Encoding and sizing are iterative: a value far deeper than the limit does not overflow the stack.
    @Test func deepValuesDoNotCrash() {
        let deep = nested(5_000)
        let bytes = PlistCodec.encode(deep)
        #expect(bytes.count == 5_000 * 5)
        #expect(PlistCodec.encodedSize(deep) == bytes.count)
        #expect(PlistCodec.nestingDepth(of: deep) == 5_000)
        #expect(frameError { _ = try PlistCodec.decode(bytes) } == .malformed(frameType: 0, reason: .nestingTooDeep))
    }

    @Test func decodeDictionary() throws {
        #expect(try PlistCodec.decodeDictionary(PlistCodec.encode(richDictionary)) == richDictionary)
        #expect(frameError { _ = try PlistCodec.decodeDictionary(PlistCodec.encode(.array([]))) }
            == .malformed(frameType: 0, reason: .expectedDictionary))
    }

    @Test(arguments: [
        ([] as [UInt8], MalformedReason.shortBody),
        ([0x00], .invalidPlistTag(0)),
        ([0x09], .invalidPlistTag(9)),
        ([0x02, 0, 0, 0], .shortBody),
        ([0x04, 2], .invalidBool(2)),
        ([0x01, 0, 0, 0, 2, 0xC3], .shortBody),
        ([0x01, 0, 0, 0, 2, 0xC3, 0x28], .invalidUTF8),
        ([0x01, 0, 0, 0, 1, 0x80], .invalidUTF8),
        ([0x06, 0xFF, 0xFF, 0xFF, 0xFF, 1], .shortBody),
        ([0x07, 0xFF, 0xFF, 0xFF, 0xFF], .shortBody),  // a huge count is rejected before allocating
        ([0x08, 0x7F, 0xFF, 0xFF, 0xFF, 0, 0], .shortBody),
        ([0x04, 1, 0], .trailingBytes(count: 1)),
        ([0x08, 0, 0, 0, 2, 0, 0, 0, 1, 0x61, 0x04, 1, 0, 0, 0, 1, 0x61, 0x04, 0], .duplicateKey),
        ([0x08, 0, 0, 0, 2, 0, 0, 0, 1, 0x62, 0x04, 1, 0, 0, 0, 1, 0x61, 0x04, 0], .unsortedKeys),
        // "é" precomposed and decomposed: different bytes, sorted, but equal Swift strings.
        ([0x08, 0, 0, 0, 2, 0, 0, 0, 3, 0x65, 0xCC, 0x81, 0x04, 1, 0, 0, 0, 2, 0xC3, 0xA9, 0x04, 0], .duplicateKey),
        ([0x08, 0, 0, 0, 1, 0, 0, 0, 1, 0xFF, 0x04, 1], .invalidUTF8),
    ])
    func malformedInputIsRejected(bytes: [UInt8], reason: MalformedReason) {
        #expect(frameError { _ = try PlistCodec.decode(bytes) } == .malformed(frameType: 0, reason: reason))
    }

    private func nested(_ depth: Int) -> PlistValue {
        var value = PlistValue.array([])
        for _ in 1..<depth { value = .array([value]) }
        return value
    }

    private func containsNaN(_ value: PlistValue) -> Bool {
        switch value {
        case .double(let d): d.isNaN
        case .array(let a): a.contains(where: containsNaN)
        case .dictionary(let d): d.values.contains(where: containsNaN)
        default: false
        }
    }
}
