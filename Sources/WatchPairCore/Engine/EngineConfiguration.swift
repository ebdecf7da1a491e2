import WatchPairQuirks
import WatchPairWire

/// Everything the engine needs to know about its side of the pair, with the defaults of docs/Configuration.md.
public struct EngineConfiguration: Sendable {
    /// Which app this engine is.
    public var role: Role
    /// Identifies the pair; the peer must present the same id in its handshake.
    public var pairId: String
    /// How the app was started: a background launch is not reachable for the phone's messages.
    public var launch: LaunchMode
    /// Payload size limits per channel.
    public var limits: PayloadLimits
    /// How long `sendMessage` waits for a reply (or a delivery confirmation) before failing with 7012.
    public var replyTimeout: Duration
    /// How long a new connection may take to complete its handshake before it is closed.
    public var handshakeTimeout: Duration
    /// How long the last frame before a deliberate close (an error telling the peer why) may wait for
    /// the socket; a peer that stopped reading must not hold the link open.
    public var finalWriteTimeout: Duration
    /// Reconnection schedule while background content waits for an absent peer.
    public var backoff: BackoffPolicy
    /// Liveness checks of an established link.
    public var keepAlive: KeepAlivePolicy
    /// At most this many userInfo transfers are sent ahead of the peer's acknowledgement.
    /// Bounds the receiver's work per round trip; the rest waits in the store.
    public var sendWindow: Int
    /// At most this many incoming messages are handled at once per link; more get 7014 at once.
    public var maxConcurrentIncomingMessages: Int
    /// Bytes per file chunk frame (default 64 KiB, well under the frame limit): the granularity at which
    /// other traffic interleaves with a file.
    public var fileChunkSize: Int = 64 * 1024
    /// The most file bytes sent beyond the receiver's durable offset (default 16 MiB): what a link drop
    /// can cost, and the most received bytes waiting for the receiver's writer. It keeps the sender going
    /// while the receiver's syncs run; at 4 MiB a large file waited for them (BENCHMARKS.md, "Files").
    public var fileWindow: UInt64 = 16 << 20
    /// Received file bytes written before one sync and acknowledgement (default 2 MiB); at most half the
    /// window, so the sender keeps sending while the receiver syncs. Each sync is an fdatasync and a store
    /// commit: at 256 KiB they were most of a large file's time (8 fsyncs per MiB; BENCHMARKS.md, "Files").
    public var fileSyncBytes: UInt64 = 2 << 20
    /// Complication transfers a (UTC) day before `transferCurrentComplicationUserInfo` sends plain
    /// userInfo instead (default 50, Apple's; ``ComplicationBudget``).
    public var complicationDailyBudget: Int = 50
    /// The quirks of real devices set from the start (docs/Quirks.md); none by default.
    public var quirks: [Quirk: QuirkSetting] = [:]

    public init(
        role: Role,
        pairId: String = "default",
        launch: LaunchMode = .foreground,
        limits: PayloadLimits = PayloadLimits(),
        replyTimeout: Duration = .seconds(10),
        handshakeTimeout: Duration = .seconds(5),
        finalWriteTimeout: Duration = .seconds(1),
        backoff: BackoffPolicy = BackoffPolicy(),
        keepAlive: KeepAlivePolicy = KeepAlivePolicy(),
        sendWindow: Int = 1024,
        maxConcurrentIncomingMessages: Int = 64
    ) {
        self.role = role
        self.pairId = pairId
        self.launch = launch
        self.limits = limits
        self.replyTimeout = replyTimeout
        self.handshakeTimeout = handshakeTimeout
        self.finalWriteTimeout = finalWriteTimeout
        self.backoff = backoff
        self.keepAlive = keepAlive
        self.sendWindow = sendWindow
        self.maxConcurrentIncomingMessages = maxConcurrentIncomingMessages
    }
}

/// Keep-alive schedule: a ping every `interval`; a link that has sent nothing for `timeout` is dead.
///
/// A peer that hangs (SIGSTOP) keeps its socket open, so only silence reveals it; it is detected
/// between `timeout` and `timeout + interval` after its last frame.
public struct KeepAlivePolicy: Sendable, Hashable {
    /// Time between pings; nil disables keep-alives (used by tests that step a manual clock).
    public var interval: Duration?
    /// Silence after which the link is closed.
    public var timeout: Duration

    public init(interval: Duration? = .seconds(2), timeout: Duration = .seconds(6)) {
        self.interval = interval
        self.timeout = timeout
    }
}
