import Foundation

/// Wall time that moves with an injected clock: `origin` when it is made, then the clock's elapsed time.
///
/// What the engine reads as "today" (the complication budget's UTC day) comes from here, so a test on a
/// manual clock meets a day boundary only where it steps to one, and a test that pins `origin` never meets
/// the real midnight at all.
public struct WallClock: Sendable {
    private let read: @Sendable () -> Date

    /// Wall time that is `origin` now and moves as `clock` does.
    public init(_ clock: any Clock<Duration>, origin: Date) {
        read = Self.timeline(clock, origin: origin)
    }

    /// Now on this timeline.
    public func now() -> Date { read() }

    private static func timeline<C: Clock<Duration>>(_ clock: C, origin: Date) -> @Sendable () -> Date {
        let start = clock.now
        return {
            let (seconds, attoseconds) = start.duration(to: clock.now).components
            return origin.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
        }
    }
}
