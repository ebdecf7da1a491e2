/// When a wait on control sockets ends, as `poll(2)` takes it.
///
/// wcctl's deadlines are `ContinuousClock` instants; wcbench keeps its own monotonic nanoseconds out of
/// its hot loops' `Duration` arithmetic and conforms a wrapper of them. `nil` (an `Optional` deadline)
/// waits forever.
public protocol PollDeadline {
    /// Milliseconds left for `poll(2)`, rounded up so a wait never ends early; 0 once the deadline has
    /// passed, -1 for no deadline.
    var pollTimeout: Int32 { get }
}

extension ContinuousClock.Instant: PollDeadline {
    public var pollTimeout: Int32 {
        let remaining = ContinuousClock.now.duration(to: self)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }
}

extension Optional: PollDeadline where Wrapped: PollDeadline {
    public var pollTimeout: Int32 { self?.pollTimeout ?? -1 }
}

extension PollDeadline where Self == ContinuousClock.Instant? {
    /// No deadline: wait as long as it takes.
    public static var never: Self { nil }
}
