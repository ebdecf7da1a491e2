import SplitMix

/// The quirks set on one side of one pair, and the seeded decision at each opportunity.
///
/// The engine asks at the place a quirk's behaviour lives (`event(.opportunity(.lateReply))` when a
/// reply is about to be written) and carries out what comes back. With nothing set, `isEmpty` is true and
/// callers skip the question altogether, so a quirk that is off costs the hot path one load.
///
/// Each quirk draws from its own generator (its seed mixed with the quirk), so turning one quirk on
/// does not shift another's injections; setting a quirk again restarts its draws and its count.
public struct QuirkMachine: Sendable {
    /// What the machine is told.
    public enum Event: Sendable, Hashable {
        /// Turn `Quirk` on with this setting (replacing any earlier one).
        case set(Quirk, QuirkSetting)
        /// Turn one quirk off, or every quirk (nil).
        case clear(Quirk?)
        /// The place `Quirk` acts has been reached: inject or not?
        case opportunity(Quirk)
    }

    /// What the caller does.
    public enum Action: Sendable, Hashable {
        /// Nothing: behave as documented.
        case none
        /// Misbehave as the quirk says.
        case inject(Injection)
    }

    /// One injection: which quirk, its 1-based number, and the time to hold back (for the quirks that do).
    public struct Injection: Sendable, Hashable {
        public let quirk: Quirk
        public let ordinal: Int
        public let delay: Duration

        public init(quirk: Quirk, ordinal: Int, delay: Duration) {
            self.quirk = quirk
            self.ordinal = ordinal
            self.delay = delay
        }
    }

    /// One quirk as it stands: its setting, how many opportunities it saw and how many it took.
    public struct Status: Sendable, Hashable {
        public let quirk: Quirk
        public let setting: QuirkSetting
        public let opportunities: Int
        public let injections: Int
        /// True once `count` injections happened: the quirk stays listed but fires no more.
        public var isSpent: Bool { setting.count.map { injections >= $0 } ?? false }
    }

    private struct Armed: Sendable {
        var setting: QuirkSetting
        var random: SplitMix64
        var opportunities = 0
        var injections = 0
    }

    private var armed: [Quirk: Armed] = [:]

    /// A machine with nothing set.
    public init() {}

    /// A machine with `settings` set.
    public init(_ settings: [Quirk: QuirkSetting]) {
        for (quirk, setting) in settings { _ = event(.set(quirk, setting)) }
    }

    /// True when no quirk is set: the caller need not ask.
    public var isEmpty: Bool { armed.isEmpty }

    /// Whether `quirk` is set (spent or not).
    public func isSet(_ quirk: Quirk) -> Bool { armed[quirk] != nil }

    /// Every set quirk, in catalog order.
    public var statuses: [Status] {
        Quirk.allCases.compactMap { quirk in
            armed[quirk].map {
                Status(quirk: quirk, setting: $0.setting, opportunities: $0.opportunities, injections: $0.injections)
            }
        }
    }

    public mutating func event(_ event: Event) -> Action {
        switch event {
        case .set(let quirk, let setting):
            armed[quirk] = Armed(setting: setting, random: SplitMix64(seed: Self.seed(setting.seed, quirk)))
            return .none
        case .clear(let quirk?):
            armed[quirk] = nil
            return .none
        case .clear(nil):
            armed.removeAll()
            return .none
        case .opportunity(let quirk):
            guard var state = armed[quirk] else { return .none }
            defer { armed[quirk] = state }
            state.opportunities += 1
            if let count = state.setting.count, state.injections >= count { return .none }
            guard Self.unit(&state.random) < state.setting.probability else { return .none }
            state.injections += 1
            let delay = Self.draw(state.setting.delay, &state.random)
            return .inject(Injection(quirk: quirk, ordinal: state.injections, delay: delay))
        }
    }

    /// A draw in [0, 1) from 53 bits, so probability 1 always fires and 0 never does.
    private static func unit(_ random: inout SplitMix64) -> Double {
        Double(random.next() >> 11) * 0x1p-53
    }

    /// A duration drawn uniformly from `range`, to the nanosecond.
    private static func draw(_ range: ClosedRange<Duration>, _ random: inout SplitMix64) -> Duration {
        let span = range.upperBound - range.lowerBound
        guard span > .zero else { return range.lowerBound }
        let nanoseconds = span.components.seconds * 1_000_000_000 + span.components.attoseconds / 1_000_000_000
        return range.lowerBound + .nanoseconds(Int64(unit(&random) * Double(nanoseconds)))
    }

    /// The quirk's own stream: the seed mixed with the quirk's place in the catalog.
    private static func seed(_ seed: UInt64, _ quirk: Quirk) -> UInt64 {
        let index = UInt64(Quirk.allCases.firstIndex(of: quirk)! + 1)
        return seed ^ (index &* 0xD1B5_4A32_D192_ED03)
    }
}
