/// A random source that replays: SplitMix64, the same numbers for the same seed on every platform.
///
/// Used for exponential backoff jitter (seed it in tests) and by `FlakySession`'s faults.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A source starting at `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// A source seeded from the system's generator (not replayable).
    public init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
