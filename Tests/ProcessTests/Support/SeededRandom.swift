import Foundation

/// SplitMix64: a small seeded generator, so a failing random kill schedule can be replayed with
/// `WATCHPAIR_TEST_SEED=<seed>`.
struct SeededRandom: RandomNumberGenerator {
    /// The seed this generator started from (printed in failure messages).
    let seed: UInt64
    private var state: UInt64

    /// `$WATCHPAIR_TEST_SEED` when set, else a fresh random seed.
    init() {
        let fromEnvironment = ProcessInfo.processInfo.environment["WATCHPAIR_TEST_SEED"].flatMap(UInt64.init)
        self.init(seed: fromEnvironment ?? UInt64.random(in: 0...UInt64.max))
    }

    /// A generator starting from `seed`.
    init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
