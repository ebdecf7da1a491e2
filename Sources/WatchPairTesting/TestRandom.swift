import Glibc
import SplitMix

/// The random source of randomized tests: SplitMix64, the algorithm of WatchConnection's
/// `SeededRandom`, with its seed kept so a failing run can print it and be replayed.
public struct TestRandom: RandomNumberGenerator, Sendable {
    /// The environment variable that fixes the seed of ``init(seedVariable:)``: `WATCHPAIR_TEST_SEED`.
    public static let seedVariable = "WATCHPAIR_TEST_SEED"

    /// The seed this source started from.
    public let seed: UInt64
    private var generator: SplitMix64

    /// A source starting at `seed`: the same numbers on every run.
    public init(seed: UInt64) {
        self.seed = seed
        generator = SplitMix64(seed: seed)
    }

    /// A source seeded from the environment variable `seedVariable` when it holds a number, else from
    /// the system's generator. Print ``seed`` so a failing run can be replayed with that variable.
    public init(seedVariable: String = TestRandom.seedVariable) {
        let fixed = getenv(seedVariable).flatMap { UInt64(String(cString: $0)) }
        self.init(seed: fixed ?? UInt64.random(in: 0...UInt64.max))
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        generator.next()
    }
}
