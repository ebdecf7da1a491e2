import Foundation
import Testing
import WatchPairTesting
import WatchPairWire

/// Builds a frame by hand (not with `FrameEncoder`): length, type, body, CRC-32C.
func rawFrame(type: UInt8, body: [UInt8]) -> [UInt8] {
    let length = UInt32(body.count + 1)
    var bytes = be32(length) + [type] + body
    bytes += be32(CRC32C.checksum(bytes[4..<(4 + FrameFormat.checkedLength(type: type, length: Int(length)))]))
    return bytes
}

func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
func be32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * UInt32($0))) } }
func be64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * UInt64($0))) } }
func lp(_ s: String) -> [UInt8] { be32(UInt32(s.utf8.count)) + Array(s.utf8) }
func uuidBytes(_ u: UUID) -> [UInt8] { withUnsafeBytes(of: u.uuid) { Array($0) } }

/// Decodes every complete frame in `bytes` with a fresh decoder, then calls `finish()`.
func decodeAll(_ bytes: [UInt8], maxFrameLength: Int = FrameFormat.defaultMaxFrameLength) throws(FrameError) -> [Frame] {
    var decoder = FrameDecoder(maxFrameLength: maxFrameLength)
    decoder.append(bytes)
    var frames: [Frame] = []
    while let frame = try decoder.next() { frames.append(frame) }
    try decoder.finish()
    return frames
}

/// The `FrameError` that `body` throws, or nil (any other error is recorded as an issue).
func frameError(_ body: () throws -> Void) -> FrameError? {
    do {
        try body()
        return nil
    } catch let error as FrameError {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}

/// The `WCFailure` that `body` throws, or nil (any other error is recorded as an issue).
func wcFailure<T>(_ body: () throws -> T) -> WCFailure? {
    do {
        _ = try body()
        return nil
    } catch let error as WCFailure {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}

let uuidA = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
let uuidB = UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF")!

/// A dictionary touching every plist type, nested containers included.
let richDictionary: PlistDictionary = [
    "string": .string("héllo, wörld ✓ 🍎"),
    "empty": .string(""),
    "int": .integer(-42),
    "min": .integer(.min),
    "max": .integer(.max),
    "double": .double(3.25),
    "negZero": .double(-0.0),
    "inf": .double(.infinity),
    "true": .bool(true),
    "false": .bool(false),
    "date": .date(Date(timeIntervalSinceReferenceDate: 737_000_000.123_456)),
    "data": .data(Data([0, 1, 2, 0xFF])),
    "array": .array([.integer(1), .string("two"), .array([]), .dictionary([:])]),
    "dict": .dictionary(["nested": .dictionary(["deeper": .array([.bool(false)])])]),
]

/// Random property-list values for property tests; containers stop at `depth` 0.
struct PlistGenerator {
    var rng: TestRandom

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }

    mutating func uuid() -> UUID {
        let a = rng.next(), b = rng.next()
        let bytes = be64(a) + be64(b)
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    mutating func string() -> String {
        let alphabet: [String] = ["a", "b", "Z", "0", " ", "é", "e\u{301}", "✓", "🍎", "\u{0}", "\"", "\\", "\n", "$", "日本"]
        return (0..<int(0...8)).map { _ in alphabet[int(0...(alphabet.count - 1))] }.joined()
    }

    mutating func double() -> Double {
        switch int(0...7) {
        case 0: return [0.0, -0.0, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude][int(0...6)]
        case 1: return Double(bitPattern: rng.next())
        default: return Double.random(in: -1e12...1e12, using: &rng)
        }
    }

    mutating func dateInterval() -> Double {
        switch int(0...5) {
        case 0: return [Date.distantPast.timeIntervalSinceReferenceDate, Date.distantFuture.timeIntervalSinceReferenceDate,
                        0, -0.001, 1e-7, -1e-7, -63_113_904_000, 252_423_993_599.999][int(0...7)]
        case 1: return Double(int(-1_000_000_000...2_000_000_000))
        case 2: return Double(int(-1_000_000_000...2_000_000_000)) + Double(int(0...999)) / 1000
        default: return Double.random(in: -7e10...2.5e11, using: &rng)
        }
    }

    mutating func value(depth: Int) -> PlistValue {
        switch int(0...(depth > 0 ? 7 : 5)) {
        case 0: return .string(string())
        case 1: return .integer(int(0...3) == 0 ? [Int64.min, .max, 0, -1][int(0...3)] : Int64(bitPattern: rng.next()))
        case 2: return .double(double())
        case 3: return .bool(int(0...1) == 1)
        case 4: return .date(Date(timeIntervalSinceReferenceDate: dateInterval()))
        case 5: return .data(Data((0..<int(0...20)).map { _ in UInt8.random(in: 0...255, using: &rng) }))
        case 6: return .array((0..<int(0...4)).map { _ in value(depth: depth - 1) })
        default: return .dictionary(dictionary(depth: depth - 1))
        }
    }

    mutating func dictionary(depth: Int) -> PlistDictionary {
        var d: PlistDictionary = [:]
        if int(0...9) == 0 {  // exercise the reserved JSON keys
            d[["$data", "$date", "$double", "$dict"][int(0...3)]] = value(depth: depth)
            return d
        }
        for _ in 0..<int(0...4) { d[string()] = value(depth: depth) }
        return d
    }

    mutating func frame() -> Frame {
        let body: MessageBody = int(0...1) == 0
            ? .dictionary(dictionary(depth: 2))
            : .data(Data((0..<int(0...40)).map { _ in UInt8.random(in: 0...255, using: &rng) }))
        switch int(0...14) {
        case 0:
            return .hello(Hello(
                role: int(0...1) == 0 ? .phone : .watch, pairId: string(), storeId: uuid(),
                launch: int(0...1) == 0 ? .foreground : .background,
                resume: ResumeState(peerStoreId: int(0...1) == 0 ? nil : uuid(),
                                    lastUserInfoSeq: rng.next(), contextVersion: rng.next())))
        case 1: return .message(id: rng.next(), wantsReply: int(0...1) == 0, body: body)
        case 2: return .reply(id: rng.next(), body: body)
        case 3: return .error(relatesTo: rng.next(), code: WCErrorCode.allCases[int(0...(WCErrorCode.allCases.count - 1))], reason: string())
        case 4: return .userInfo(seq: rng.next(), after: 0, transferId: uuid(), payload: dictionary(depth: 3))
        case 5: return .ack(upTo: rng.next())
        case 6: return .context(version: rng.next(), payload: dictionary(depth: 3))
        case 7: return .contextAck(version: rng.next())
        case 8: return .ping(nonce: rng.next())
        case 9: return .pong(nonce: rng.next())
        case 10:
            return .fileOffer(FileOffer(
                seq: rng.next(), after: rng.next(), transferId: uuid(), fileName: "f" + string().replacingOccurrences(of: "\u{0}", with: "_"), size: rng.next(),
                checksum: UInt32(truncatingIfNeeded: rng.next()),
                metadata: int(0...1) == 0 ? nil : try! EncodedDictionary(dictionary(depth: 3))))
        case 11:
            return .fileChunk(seq: rng.next(), offset: rng.next(),
                              bytes: Data((0..<int(0...64)).map { _ in UInt8.random(in: 0...255, using: &rng) }))
        case 12: return .fileAck(seq: rng.next(), offset: rng.next())
        case 13: return .launch(int(0...1) == 0 ? .foreground : .background)
        default: return .fileEnd(seq: rng.next(), status: FileEndStatus.allCases[int(0...2)])
        }
    }
}

/// Bit-exact equality (NaN equals NaN of the same bits, -0.0 differs from 0.0), via the canonical encoding.
func bitEqual(_ a: PlistValue, _ b: PlistValue) -> Bool {
    PlistCodec.encode(a) == PlistCodec.encode(b)
}
