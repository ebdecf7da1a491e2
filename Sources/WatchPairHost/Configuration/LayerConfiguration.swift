/// The settings of a daemon's reliability layer (the `WatchConnection` behind `wcctl request`,
/// `serve`, `health` and `queue`), as plain values; the daemon hands them to the layer's own
/// configuration (`WatchConnectionConfiguration`), whose defaults these are.
///
/// The host does not import the layer (the layer sees only a `WCSession`-shaped session), so the
/// defaults are written here as well; a test of the daemon checks that both agree.
public struct LayerConfiguration: Sendable, Hashable {
    /// The most requests the layer's queue holds (100); one more drops the oldest (`requestDropped`).
    public var queueCapacity = 100
    /// How long a queued request waits before it expires (1 h, `requestExpired`); also how long a request
    /// waits at the receiver for a handler of its type.
    public var queueExpiry: Duration = .seconds(3600)
    /// Failed requests in a row that make the health `degraded` (3).
    public var degradedAfter = 3
    /// Failed requests in a row that make the health `unhealthy` (10); at least `degradedAfter`.
    public var unhealthyAfter = 10
    /// The window in which one recovery suggestion is made at most once (30 s; 0 makes each one).
    public var suggestionDedupeWindow: Duration = .seconds(30)

    /// The defaults.
    public init() {}
}
