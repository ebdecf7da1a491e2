/// How often and for how long `send` tries a live message.
///
/// `maxAttempts` counts the first try; `timeout` bounds the whole send from its start to its answer
/// (time a request spends in the request queue is bounded by the queue's expiry instead). Between
/// attempts the delay comes from `backoff` through `RetryDelaySequence`. Only failures that
/// `RetryDecision.isRetryable` accepts are retried.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts including the first; at least 1.
    public let maxAttempts: Int
    /// The bound on the whole send.
    public let timeout: Duration
    /// The delays between attempts.
    public let backoff: Backoff

    /// A policy; `maxAttempts` below 1 is taken as 1.
    public init(maxAttempts: Int, timeout: Duration = .seconds(10), backoff: Backoff = .default) {
        self.maxAttempts = max(1, maxAttempts)
        self.timeout = timeout
        self.backoff = backoff
    }

    /// 3 attempts within 10 s, 200 ms apart.
    public static let `default` = RetryPolicy(maxAttempts: 3, timeout: .seconds(10))
    /// 5 attempts within 30 s, 200 ms apart.
    public static let patient = RetryPolicy(maxAttempts: 5, timeout: .seconds(30))
    /// One attempt within 10 s.
    public static let none = RetryPolicy(maxAttempts: 1, timeout: .seconds(10))
}

/// The delay before each retry.
public enum Backoff: Sendable, Hashable {
    /// The same delay every time.
    case fixed(Duration)
    /// Full jitter: retry n (1-based) waits a uniformly random delay in
    /// `0 ... min(max, initial × multiplier^(n-1))`, so retries of many senders spread out.
    case exponential(initial: Duration, multiplier: Double, max: Duration)

    /// `.fixed(.milliseconds(200))`, as WatchConnectivitySwift documents.
    public static let `default` = Backoff.fixed(.milliseconds(200))
}
