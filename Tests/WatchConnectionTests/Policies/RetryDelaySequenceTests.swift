import Testing
import WatchConnection

@Suite("Retry delays and which failures retry")
struct RetryDelaySequenceTests {
    @Test("fixed backoff: 200 ms every time by default")
    func fixedDefault() {
        let delays = Array(RetryDelaySequence(backoff: RetryPolicy.default.backoff, random: SeededRandom(seed: 1)).prefix(4))
        #expect(delays == [.milliseconds(200), .milliseconds(200), .milliseconds(200), .milliseconds(200)])
    }

    @Test("the documented policies", arguments: [
        (RetryPolicy.default, 3, Duration.seconds(10)),
        (RetryPolicy.patient, 5, Duration.seconds(30)),
        (RetryPolicy.none, 1, Duration.seconds(10)),
        (RetryPolicy(maxAttempts: 0, timeout: .seconds(2)), 1, Duration.seconds(2)),
    ])
    func policies(policy: RetryPolicy, attempts: Int, timeout: Duration) {
        #expect(policy.maxAttempts == attempts)
        #expect(policy.timeout == timeout)
    }

    @Test("exponential caps: initial × multiplier^n, never above max", arguments: [
        (0, Duration.milliseconds(100)), (1, .milliseconds(200)), (2, .milliseconds(400)), (3, .milliseconds(800)),
        (4, .seconds(1)), (60, .seconds(1)), (5_000, .seconds(1)),
    ])
    func exponentialCap(retry: Int, cap: Duration) {
        let computed = RetryDelaySequence<SeededRandom>.cap(
            retry: retry, initial: .milliseconds(100), multiplier: 2, maximum: .seconds(1))
        #expect(computed == cap)
    }

    @Test("full jitter: every delay within 0...cap, and the same seed replays the same delays")
    func jitter() {
        let backoff = Backoff.exponential(initial: .milliseconds(100), multiplier: 2, max: .seconds(1))
        let first = Array(RetryDelaySequence(backoff: backoff, random: SeededRandom(seed: 42)).prefix(20))
        let again = Array(RetryDelaySequence(backoff: backoff, random: SeededRandom(seed: 42)).prefix(20))
        let other = Array(RetryDelaySequence(backoff: backoff, random: SeededRandom(seed: 43)).prefix(20))
        #expect(first == again)
        #expect(first != other)
        for (retry, delay) in first.enumerated() {
            let cap = RetryDelaySequence<SeededRandom>.cap(retry: retry, initial: .milliseconds(100), multiplier: 2, maximum: .seconds(1))
            #expect(delay >= .zero && delay <= cap, "retry \(retry): \(delay) not in 0...\(cap)")
        }
        // Jitter spreads: not all delays at the cap.
        #expect(Set(first).count > 10)
    }

    @Test("retried codes: 7007, 7011, 7014 and timeouts only", arguments: [
        (7007, true), (7011, true), (7014, true), (7012, true), (7017, true),
        (7008, false), (7009, false), (7010, false), (7001, false), (7004, false), (7015, false),
    ])
    func retryable(code: Int, retried: Bool) {
        #expect(RetryDecision.isRetryable(code: code) == retried)
        #expect(RetryDecision.isRetryable(.sessionError(code: code, description: "")) == retried)
    }

    @Test("layer errors: notReachable retries; the request's own faults and answers never do", arguments: [
        (WatchConnectionError.notReachable, true),
        (.payloadTooLarge(size: 70_000, limit: 65_536), false),
        (.handlerNotRegistered(requestType: "X"), false),
        (.handlerError(requestType: "X", description: "boom"), false),
        (.timeout, false), (.cancelled, false),
    ])
    func layerErrors(error: WatchConnectionError, retried: Bool) {
        #expect(RetryDecision.isRetryable(error) == retried)
    }
}
