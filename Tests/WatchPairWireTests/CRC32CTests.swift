import Testing
import WatchPairTesting
import WatchPairWire

@Suite struct CRC32CTests {
    /// Every implementation this CPU can run; the software path always, so it stays tested (the fallback
    /// forced) where the hardware one is chosen.
    static let implementations: [CRC32C.Implementation] =
        CRC32C.implementation == .hardware ? [.software, .hardware] : [.software]

    @Test(arguments: implementations) func knownVectors(using implementation: CRC32C.Implementation) {
        func crc(_ bytes: [UInt8]) -> UInt32 { CRC32C.update(0, with: bytes, using: implementation) }
        #expect(crc(Array("123456789".utf8)) == 0xE306_9283)
        // RFC 3720 (iSCSI) appendix B.4 test vectors.
        #expect(crc([]) == 0)
        #expect(crc([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(crc([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(crc((0..<32).map { UInt8($0) }) == 0x46DD_794E)
        #expect(crc((0..<32).map { UInt8(31 - $0) }) == 0x113F_DB5C)
    }

    /// Slice-by-8 must agree with the plain bitwise definition at every length and alignment.
    @Test func matchesBitwiseReference() {
        var rng = TestRandom(seed: 7)
        let bytes = (0..<300).map { _ in UInt8.random(in: 0...255, using: &rng) }
        for start in 0..<9 {
            for end in stride(from: start, through: bytes.count, by: 7) {
                let slice = bytes[start..<end]
                #expect(CRC32C.update(0, with: slice, using: .software) == bitwise(slice), "bytes \(start)..<\(end)")
            }
        }
    }

    @Test func incrementalUpdate() {
        let bytes = Array("The quick brown fox jumps over the lazy dog".utf8)
        let whole = CRC32C.checksum(bytes)
        for split in 0...bytes.count {
            #expect(CRC32C.update(CRC32C.checksum(bytes[..<split]), with: bytes[split...]) == whole)
        }
        // A non-contiguous collection takes the copying path.
        #expect(CRC32C.checksum(bytes.lazy.map { $0 }) == whole)
    }

    private func bitwise(_ bytes: some Collection<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
        }
        return ~c
    }
}
