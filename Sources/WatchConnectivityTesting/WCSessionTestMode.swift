/// How a ``WCSessionPair`` links its two sessions; run one test body in each (hummingbird's
/// `.router` / `.live` idea): `@Test(arguments: WCSessionTestMode.allCases)`.
public enum WCSessionTestMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// An in-memory link (WatchPairTesting's `InMemoryNetwork`, optionally through the fault-injecting
    /// transport) and a `ManualClock`: fast, deterministic, faults on demand.
    case inMemory
    /// Real Unix sockets in a short temporary directory, and the real clock: what the app runs on.
    case unixSockets

    /// `inMemory` or `unixSockets`, for test names.
    public var description: String { rawValue }
}
