/// How one quirk fires: at each opportunity with `probability`, at most `count` times, drawn from `seed`
/// (the same seed and the same opportunities give the same injections), and for the quirks that hold
/// something back (`delayedDelivery`, `lateReply`, `installedFlapping`) for a time drawn from `delay`.
public struct QuirkSetting: Sendable, Hashable, Codable {
    /// The chance, 0…1, that an opportunity becomes an injection. 1 (the default) fires every time.
    public let probability: Double
    /// The most injections, or nil for no limit; a quirk that has fired `count` times is spent.
    public let count: Int?
    /// The seed of this quirk's draws.
    public let seed: UInt64
    /// The range a held-back time is drawn from, uniformly (a single value when both bounds are equal).
    public let delay: ClosedRange<Duration>

    /// The delay range when none is given: long enough to outlast a test's quick checks, short enough
    /// to wait out.
    public static let defaultDelay: ClosedRange<Duration> = .seconds(1) ... .seconds(3)

    /// A setting, validated: probability in 0…1, count at least 1, delays not negative.
    public init(
        probability: Double = 1, count: Int? = nil, seed: UInt64 = 0, delay: ClosedRange<Duration> = defaultDelay
    ) throws(QuirkError) {
        guard probability >= 0, probability <= 1 else { throw .probabilityOutOfRange(probability) }
        if let count, count < 1 { throw .countNotPositive(count) }
        guard delay.lowerBound >= .zero else { throw .invalidDelay(Self.text(delay)) }
        self.init(checked: probability, count, seed, delay)
    }

    private init(checked probability: Double, _ count: Int?, _ seed: UInt64, _ delay: ClosedRange<Duration>) {
        self.probability = probability
        self.count = count
        self.seed = seed
        self.delay = delay
    }

    /// The default setting: every opportunity, no limit, seed 0, the default delay.
    public static let always = QuirkSetting(checked: 1, nil, 0, defaultDelay)
}
