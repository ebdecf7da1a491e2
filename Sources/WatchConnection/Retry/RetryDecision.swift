/// Which failures a send retries: the transient ones only.
///
/// Retried: 7007 (not reachable: phantom reachability, a link coming back), 7011 (the reply was lost),
/// 7014 (delivery failed: the link dropped), and timeouts (7012 no reply in time, 7017 transfer timed
/// out). Never retried: 7008, 7009, 7010 (the request itself is
/// wrong, so a retry fails the same way), and every other error.
public enum RetryDecision {
    /// The `WCErrorDomain` codes that are retried.
    public static let retryableCodes: Set<Int> = [7007, 7011, 7012, 7014, 7017]

    /// Whether a failure with `code` (a `WCErrorDomain` code) is retried.
    public static func isRetryable(code: Int) -> Bool {
        retryableCodes.contains(code)
    }

    /// Whether `error` is retried.
    public static func isRetryable(_ error: WatchConnectionError) -> Bool {
        switch error {
        case .sessionError(let code, _): isRetryable(code: code)
        case .notReachable: true
        default: false
        }
    }
}
