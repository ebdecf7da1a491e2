import Foundation
import Testing
@testable import WatchPairCore
import WatchPairTesting

/// Time-ordered transfer ids (UUID version 7): the layout, the counter within a millisecond, a clock that
/// stands still or goes back, and that ids only grow in byte order (the order of the outbox's index).
@Suite("Store: time-ordered transfer ids")
struct TransferIdGeneratorTests {
    /// 2026-05-01 00:00:00 UTC in milliseconds (0x019DE0D5C800).
    static let may1: UInt64 = 1_777_593_600_000

    /// The state before (nil: a new generator), the clock, the random bits, the id made, the state after.
    struct Row: Sendable, CustomTestStringConvertible {
        var before: (milliseconds: UInt64, counter: UInt16)?
        var now: UInt64
        var random: UInt64
        var id: String
        var after: (milliseconds: UInt64, counter: UInt16)
        var why: String
        var testDescription: String { why }
    }

    @Test("one id per line", arguments: [
        Row(before: nil, now: may1, random: 0, id: "019DE0D5-C800-7000-8000-000000000000", after: (may1, 0),
            why: "first id: the millisecond, version 7, counter 0, variant 10"),
        Row(before: (may1, 0), now: may1, random: .max, id: "019DE0D5-C800-7001-BFFF-FFFFFFFFFFFF", after: (may1, 1),
            why: "same millisecond: the counter counts; only 62 random bits, under the variant"),
        Row(before: (may1, 7), now: may1 + 1, random: 0, id: "019DE0D5-C801-7000-8000-000000000000", after: (may1 + 1, 0),
            why: "the clock moves on: the counter restarts"),
        Row(before: (may1, 0xFFE), now: may1, random: 0x0123_4567_89AB_CDEF, id: "019DE0D5-C800-7FFF-8123-456789ABCDEF",
            after: (may1, 0xFFF), why: "the last counter value of a millisecond"),
        Row(before: (may1, 0xFFF), now: may1, random: 0, id: "019DE0D5-C801-7000-8000-000000000000", after: (may1 + 1, 0),
            why: "4,097th id in one millisecond: borrows the next one"),
        Row(before: (may1 + 5, 3), now: may1, random: 0, id: "019DE0D5-C805-7004-8000-000000000000", after: (may1 + 5, 4),
            why: "the clock went back: stays at the last millisecond and counts on"),
        Row(before: nil, now: .max, random: 0, id: "FFFFFFFF-FFFF-7000-8000-000000000000",
            after: (TransferIdGenerator.maxMilliseconds, 0), why: "a time beyond 48 bits is clamped"),
    ])
    func table(_ row: Row) {
        var generator = row.before.map { TransferIdGenerator(milliseconds: $0.milliseconds, counter: $0.counter) } ?? TransferIdGenerator()
        #expect(generator.next(unixMilliseconds: row.now, random: row.random).uuidString == row.id)
        #expect(generator.last?.milliseconds == row.after.milliseconds)
        #expect(generator.last?.counter == row.after.counter)
    }

    @Test("ids only grow in byte order, through bursts, a still clock and a clock set back; all are distinct")
    func increasing() {
        var generator = TransferIdGenerator()
        var random = TestRandom(seed: 15)
        // A burst of 10,000 in one millisecond, the clock set back a second, then steps forward.
        let clock = Array(repeating: Self.may1, count: 10_000) + [Self.may1 - 1_000] + (1...2_000).map { Self.may1 + UInt64($0 / 3) }
        let ids = clock.map { generator.next(unixMilliseconds: $0, random: random.next()) }
        Self.expectIncreasing(ids)
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.uuid.6 >> 4 == 7 && $0.uuid.8 >> 6 == 0b10 }, "version 7, variant 10")
    }

    /// Each id sorts after the one before it in byte order, the order of the index.
    static func expectIncreasing(_ ids: [UUID], sourceLocation: SourceLocation = #_sourceLocation) {
        let bytes = ids.map { withUnsafeBytes(of: $0.uuid) { Array($0) } }
        for (earlier, later) in zip(bytes, bytes.dropFirst()) {
            #expect(earlier.lexicographicallyPrecedes(later), sourceLocation: sourceLocation)
        }
    }
}
