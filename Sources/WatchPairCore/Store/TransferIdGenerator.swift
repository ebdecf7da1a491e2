import Foundation

/// Time-ordered userInfo transfer ids: UUID version 7 (RFC 9562), strictly increasing per generator.
///
/// Why: the outbox keeps a UNIQUE index on `transfer_id`. Random (version 4) ids put every insert, and the
/// group commit's duplicate check, on a random leaf of that index: once the index outgrows SQLite's page
/// cache (about 100,000 queued transfers with 1 KiB pages) each one reads a page, and at any depth each one
/// dirties a page of its own, written to the WAL and again at the checkpoint (BENCHMARKS.md, "Cost
/// growth"). Ids that only grow land on the index's last leaf, which every transfer of a batch shares.
///
/// Layout (big-endian, so byte order is time order): 48 bits of Unix time in milliseconds, the version
/// nibble 7, a 12-bit counter, the variant bits `10`, 62 random bits. The counter orders ids within one
/// millisecond (RFC 9562 §6.2, method 1); it restarts at 0 when the clock moves on. When the clock stands
/// still or goes back, the generator keeps its last millisecond and counts on; after 4,096 ids in one
/// millisecond it moves to the next one. So ids only grow, whatever the clock does, and they stay unique
/// across generators and restarts through the random bits, as version 4 ids do.
///
/// Pure: the time and the random bits are passed in (`PairStore` gives it the wall clock and the system
/// generator).
struct TransferIdGenerator: Sendable {
    /// The largest 48-bit millisecond value; later times are clamped to it.
    static let maxMilliseconds: UInt64 = (1 << 48) - 1
    /// The largest counter value within one millisecond.
    static let maxCounter: UInt16 = 0xFFF

    /// The millisecond of the last id, and its counter; nil before the first id.
    private(set) var last: (milliseconds: UInt64, counter: UInt16)?

    /// A generator that has made no id yet.
    init() {}

    /// A generator whose last id had this millisecond and counter (for tests).
    init(milliseconds: UInt64, counter: UInt16) {
        last = (milliseconds, counter)
    }

    /// The next id at `unixMilliseconds` (the wall clock), with the low 62 bits of `random` as its random part.
    mutating func next(unixMilliseconds: UInt64, random: UInt64) -> UUID {
        let now = min(unixMilliseconds, Self.maxMilliseconds)
        let next: (milliseconds: UInt64, counter: UInt16)
        switch last {
        case .some(let last) where now <= last.milliseconds:
            // The same millisecond, or the clock went back: count on; after 4,096 ids, borrow the next
            // millisecond (ordered until the 48 bits run out, in the year 10889).
            next = last.counter < Self.maxCounter
                ? (last.milliseconds, last.counter + 1)
                : (min(last.milliseconds + 1, Self.maxMilliseconds), 0)
        default:
            next = (now, 0)
        }
        last = next
        return Self.uuid(milliseconds: next.milliseconds, counter: next.counter, random: random)
    }

    /// The version 7 UUID of these fields.
    static func uuid(milliseconds: UInt64, counter: UInt16, random: UInt64) -> UUID {
        let time = milliseconds & maxMilliseconds
        let bits = random & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        let high = time << 16 | 0x7000 | UInt64(counter & maxCounter)
        return withUnsafeBytes(of: (high.bigEndian, bits.bigEndian)) { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }
}
