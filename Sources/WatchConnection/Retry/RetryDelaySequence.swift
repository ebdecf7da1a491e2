/// The delays between attempts of one send: a pure sequence, so tests read it without a clock.
///
/// Element n (0-based) is the wait before attempt n + 2. Fixed backoff repeats its delay; exponential
/// backoff draws each delay uniformly from `0 ... cap(n)` with `cap(n) = min(max, initial × multiplier^n)`
/// using the random source it was given (seed it to replay a run). The sequence never ends: the caller
/// stops at `maxAttempts`.
public struct RetryDelaySequence<Random: RandomNumberGenerator>: Sequence, IteratorProtocol {
    private let backoff: Backoff
    private var random: Random
    private var retry = 0

    /// The delays of `backoff`, jittered with `random`.
    public init(backoff: Backoff, random: Random) {
        self.backoff = backoff
        self.random = random
    }

    /// The next delay.
    public mutating func next() -> Duration? {
        defer { retry += 1 }
        switch backoff {
        case .fixed(let delay):
            return delay
        case .exponential(let initial, let multiplier, let maximum):
            let cap = Self.cap(retry: retry, initial: initial, multiplier: multiplier, maximum: maximum)
            let capNanoseconds = Self.nanoseconds(cap)
            guard capNanoseconds > 0 else { return .zero }
            return .nanoseconds(Int64.random(in: 0...capNanoseconds, using: &random))
        }
    }

    /// The upper bound of retry `retry` (0-based): `min(maximum, initial × multiplier^retry)`.
    public static func cap(retry: Int, initial: Duration, multiplier: Double, maximum: Duration) -> Duration {
        let grown = Double(nanoseconds(initial)) * pow(Swift.max(multiplier, 1), Double(retry))
        // Compare as Double first: the product overflows Int64 after a few dozen retries.
        guard grown < Double(nanoseconds(maximum)) else { return maximum }
        return .nanoseconds(Int64(grown))
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

import Foundation
