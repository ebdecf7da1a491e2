import Foundation

/// The settings of a `WatchConnection`, with its defaults (docs/WatchConnection.md).
public struct WatchConnectionConfiguration: Sendable {
    /// Where the request queue (`watchconnection-queue.json`), the receiver's recorded responses
    /// (`watchconnection-responses.json`) and the requests it holds for a handler
    /// (`watchconnection-held.json`) are persisted; nil: in memory only (lost with the process).
    public var storageDirectory: URL?
    /// The most queued requests (100); past it the oldest is dropped with `requestDropped`.
    public var queueCapacity: Int
    /// How long a queued request may wait (1 h); then it expires with `requestExpired`. Also how long
    /// the receiver holds a request for a handler that has not registered.
    public var queueExpiry: Duration
    /// The most requests the receiver holds for handlers that have not registered (100): requests that
    /// arrived by userInfo or context; past it the oldest is answered `handlerNotRegistered` with
    /// `requestDropped`.
    public var heldRequestCapacity = 100
    /// The health thresholds: failed requests in a row (3 → degraded, 10 → unhealthy).
    public var healthThresholds: HealthMachine.Thresholds
    /// The window in which one recovery suggestion is made at most once (30 s).
    public var suggestionDedupeWindow: Duration
    /// The most recorded responses kept for exactly-once (1,000); see `ResponseLedger`.
    public var recordedResponseCapacity = 1_000
    /// The largest encoded request, in bytes of its JSON (65,536: a message's and a userInfo's limit).
    /// A larger request fails with `payloadTooLarge` (7009) before anything is sent.
    public var payloadLimit = 65_536
    /// The retry policy of requests sent by a queue flush (their sender's policy is not persisted).
    public var flushRetryPolicy = RetryPolicy.default
    /// A flush removes the requests it handed on from the queue's file once per this many (and at its
    /// end). After a kill -9 at most this many are sent again, and the receiver answers each repeat from
    /// its recorded response without running it; a smaller batch costs the flush more file writes.
    public var flushSaveBatch = 256
    /// How long `attemptRecovery()` waits for activation and its probe's answer (5 s).
    public var recoveryTimeout: Duration = .seconds(5)
    /// The seed of the exponential backoff's jitter; nil: seeded from the system.
    public var jitterSeed: UInt64?
    /// The wall-clock time when the connection starts; later wall times are this plus the injected
    /// clock's elapsed time (so a manual clock also moves queue timestamps). Default: now.
    public var wallClockOrigin = Date()

    /// The defaults, persisted in `storageDirectory` (nil: in memory), with the settings a test (or the
    /// daemons' `layer.*` keys) may shorten: the queue's bound and expiry, the health thresholds and the
    /// suggestions' dedupe window.
    public init(
        storageDirectory: URL? = nil,
        queueCapacity: Int = 100,
        queueExpiry: Duration = .seconds(3600),
        healthThresholds: HealthMachine.Thresholds = HealthMachine.Thresholds(),
        suggestionDedupeWindow: Duration = .seconds(30)
    ) {
        self.storageDirectory = storageDirectory
        self.queueCapacity = queueCapacity
        self.queueExpiry = queueExpiry
        self.healthThresholds = healthThresholds
        self.suggestionDedupeWindow = suggestionDedupeWindow
    }
}
