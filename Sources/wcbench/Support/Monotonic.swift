import Glibc
import WatchPairControlClient

/// Nanosecond timestamps from `CLOCK_MONOTONIC`, the clock every measurement uses.
///
/// A plain `UInt64` keeps the hot loops free of `Duration` arithmetic; the conversions below are for
/// reporting and deadlines only.
enum Monotonic {
    /// Nanoseconds since an arbitrary fixed point (boot).
    @inline(__always)
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// The timestamp `seconds` from now.
    static func deadline(seconds: Double) -> UInt64 {
        now() &+ UInt64(seconds * 1e9)
    }

    /// Seconds between two timestamps.
    static func seconds(_ start: UInt64, _ end: UInt64) -> Double {
        Double(end &- start) / 1e9
    }

    /// Sleeps for `seconds` (used only to let a daemon settle before reading its memory, or to sample the
    /// machine's CPU time before a run; never to wait for an event).
    static func sleep(seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// Milliseconds left until `deadline` for `poll(2)`: -1 for none, 0 once it has passed.
    static func pollTimeout(until deadline: UInt64?) -> Int32 {
        guard let deadline else { return -1 }
        let current = now()
        guard deadline > current else { return 0 }
        return Int32(clamping: (deadline - current) / 1_000_000 + 1)
    }
}

/// A ``Monotonic`` timestamp as the control client's waits take a deadline.
struct MonotonicDeadline: PollDeadline {
    /// The deadline, in ``Monotonic/now()`` nanoseconds.
    let nanoseconds: UInt64

    init(_ nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    var pollTimeout: Int32 { Monotonic.pollTimeout(until: nanoseconds) }
}
