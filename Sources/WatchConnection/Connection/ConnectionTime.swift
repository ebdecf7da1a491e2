import Foundation

/// A connection's time, from its injected clock only: elapsed time since it started (retry and
/// dedupe windows), sleeps (timeouts, delays), and "now" on the wall timeline (queue and ledger
/// timestamps, which outlive the process). The clock is opened once, so the rest uses plain durations.
struct ConnectionTime: Sendable {
    /// Time since the connection started.
    let elapsed: @Sendable () -> Duration
    /// Sleeps for a duration; throws when cancelled.
    let sleep: @Sendable (Duration) async throws -> Void
    /// The wall time (since 1970) at which `elapsed` was zero, to the millisecond.
    private let origin: Duration

    /// The time of `clock`, started now; `origin` is the wall time of this moment.
    init<C: Clock<Duration>>(clock: C, origin: Date) {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        sleep = { try await clock.sleep(until: clock.now.advanced(by: $0), tolerance: nil) }
        self.origin = .milliseconds(Int64((origin.timeIntervalSince1970 * 1000).rounded()))
    }

    /// Now on the wall timeline (since 1970): the origin plus the elapsed time.
    var wallNow: Duration { origin + elapsed() }
}
