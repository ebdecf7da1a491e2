import Foundation
import Testing
@testable import WatchConnection

/// Request ids drawn without Foundation's `UUID()` (``UUID/random()``): version 4, RFC 9562's variant, and
/// every other bit from the generator.
@Suite("Random request ids")
struct RandomUUIDTests {
    /// Answers the same word every time.
    struct Constant: RandomNumberGenerator {
        let word: UInt64
        mutating func next() -> UInt64 { word }
    }

    @Test("the version and variant bits are set over the generator's bits, and nothing else changes", arguments: [
        (UInt64.min, "00000000-0000-4000-8000-000000000000"),
        (UInt64.max, "FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF"),
        // Little-endian words: the bytes 0x01...0x08, twice.
        (UInt64(0x0807_0605_0403_0201), "01020304-0506-4708-8102-030405060708"),
    ])
    func bits(word: UInt64, expected: String) {
        var generator = Constant(word: word)
        #expect(UUID.random(using: &generator).uuidString == expected)
    }

    @Test("system ids are version 4, RFC 9562's variant, and distinct")
    func systemIds() {
        var seen = Set<UUID>()
        for _ in 0..<1_000 {
            let id = UUID.random()
            let text = Array(id.uuidString)
            #expect(text[14] == "4", "\(id)")
            #expect("89AB".contains(text[19]), "\(id)")
            #expect(UUID(uuidString: id.uuidString) == id)
            seen.insert(id)
        }
        #expect(seen.count == 1_000)
    }

    @Test("a seeded generator gives the same ids again, and different seeds differ")
    func seeded() {
        var first = SeededRandom(seed: 7), again = SeededRandom(seed: 7), other = SeededRandom(seed: 8)
        let ids = (0..<3).map { _ in UUID.random(using: &first) }
        #expect(ids == (0..<3).map { _ in UUID.random(using: &again) })
        #expect(ids != (0..<3).map { _ in UUID.random(using: &other) })
    }
}
