import SplitMix

/// A random source that replays: SplitMix64, the same numbers for the same seed on every platform.
///
/// Used for exponential backoff jitter (seed it in tests) and by `FlakySession`'s faults.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var generator: SplitMix64

    /// A source starting at `seed`.
    public init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    /// A source seeded from the system's generator (not replayable).
    public init() {
        var system = SystemRandomNumberGenerator()
        self.init(seed: system.next())
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        generator.next()
    }
}
