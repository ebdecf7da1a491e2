import WatchPairWire

/// A byte-stream link to the peer app: how the engine reaches the other side without knowing sockets.
///
/// The Unix-socket implementation lives in `WatchPairTransport`; `WatchPairTesting` has an in-memory pair
/// and a fault-injecting wrapper. Framing is the engine's job: a transport moves bytes only, so faults
/// such as a peer dying mid-frame or a flipped byte can be injected below the codec.
public protocol Transport: Sendable {
    /// Accepts incoming connections until the calling task is cancelled, calling `handler` for each one
    /// in its own child task. Connections whose peer credentials are not allowed are refused here and
    /// never reach `handler`. Returns when cancelled; throws if the listener cannot be set up.
    func serve(_ handler: @escaping @concurrent @Sendable (any TransportConnection) async -> Void) async throws

    /// Opens a connection to the peer's link endpoint.
    ///
    /// With systemd socket activation this may launch the peer app in the background. Throws
    /// `TransportError` when the peer's endpoint is absent or refuses.
    func connect() async throws -> any TransportConnection

    /// Whether something listens on the peer's link endpoint and whether the peer app itself is running,
    /// found without connecting to the link (so nothing is launched by asking).
    func peerPresence() async -> PeerPresence

    /// Whether the peer app's process answers now: a live process, not merely an endpoint that still
    /// accepts connections. Asked before a link that must not launch the peer (presence, room): a killed
    /// app's control socket accepts connects until the kernel has closed it, which can be after its link
    /// closed, and a connect to its link socket then would relaunch it. Never launches anything.
    func peerAnswers() async -> Bool

    /// Yields whenever the peer's endpoints may have changed (appeared or vanished), or its content
    /// announcement changed, so the engine can react at once instead of polling. Finishes when the
    /// calling task is cancelled.
    func peerChanges() -> AsyncStream<Void>

    /// Tells the peer whether this app has content waiting for it (userInfo, context, files), so that a
    /// peer that starts while this app is stopped launches it to deliver (content outlives its
    /// sender). The announcement lives outside this app's process, so it holds after the app stopped or
    /// crashed; the peer reads it as ``PeerPresence/contentPending``.
    func announceContentPending(_ pending: Bool) async

    /// Records this app's installation state where the peer reads it while this app is not running
    /// (``PeerPresence/installation``), durably: it survives restarts and reboots. Throws when it cannot
    /// be written; the previous record then stands.
    func publishInstallation(_ installation: AppInstallation) async throws

    /// This app's own installation record, as last published (installed when there is none).
    func installation() async -> AppInstallation
}

extension Transport {
    /// Nothing to record: a transport without installation records always shows the app installed.
    public func publishInstallation(_ installation: AppInstallation) async throws {}

    /// Installed: a transport without installation records has none to read.
    public func installation() async -> AppInstallation { AppInstallation() }

    /// ``peerPresence()``'s `running`: for transports whose peers cannot be seen half dead.
    public func peerAnswers() async -> Bool { await peerPresence().running }
}

/// One established byte stream to the peer.
public protocol TransportConnection: Sendable {
    /// Bytes as they arrive, in order. Finishes at a clean end of stream; throws on a transport error.
    /// Single consumer.
    var inbound: AsyncThrowingStream<[UInt8], any Error> { get }

    /// Writes all of `bytes`, in order with earlier writes. Returns once the transport holds them, suspending
    /// while it holds more than its bound (back pressure). Throws if the connection is closed or an earlier
    /// write failed.
    func write(_ bytes: [UInt8]) async throws

    /// Writes `bytes` without suspending when the transport can take them now (within its bound); returns
    /// false, writing nothing, when it cannot or the connection is closed (``write(_:)`` then waits or throws).
    /// For a sender that must not wait on the peer, e.g. a message call bound by its deadline.
    func writeNow(_ bytes: [UInt8]) -> Bool

    /// Returns once everything written so far has left this side, or the connection failed or closed; for a
    /// graceful close (``close()`` drops what the peer has not taken yet). Cancelling it closes the connection.
    func flush() async

    /// Closes both directions; further writes throw, `inbound` finishes. Idempotent.
    func close() async

    /// A short description for logs, e.g. `unix:/run/watchpair/watchd.sock (pid 42, uid 0)`.
    var description: String { get }

    /// Hands every read from now on to `reads` on the thread that reads the socket, instead of through
    /// ``inbound`` (which then yields nothing), when that thread runs `executor` (the consumer's actor
    /// may then be entered there synchronously); reads already buffered are handed over, in order, before
    /// this returns, and so is an end already seen. False, changing nothing, when this transport cannot
    /// or its thread is not `executor`'s: read ``inbound`` then. Call it at most once, on `executor`.
    func readDirectly(on executor: any SerialExecutor, _ reads: DirectReads) -> Bool

    /// Reads the socket again after ``DirectReads/received`` paused it; from any thread.
    func resumeReading()
}

extension TransportConnection {
    /// Never writes without suspending: for transports that have no cheap way to tell whether a write
    /// would wait (``write(_:)`` is always correct).
    public func writeNow(_ bytes: [UInt8]) -> Bool { false }

    /// Nothing to wait for: for transports whose ``write(_:)`` returns only once the peer's side holds the bytes.
    public func flush() async {}
}

/// What can be known about the peer app without connecting to its link endpoint.
///
/// "Device off" and "not installed" are apart (docs/Lifecycle.md): `listening` false is a device that is off
/// (content queues, messages fail 7007); ``WatchState`` reads `installation` and `unitFileState` for
/// "not installed" (content fails at once with 7006/7018).
public struct PeerPresence: Sendable, Hashable {
    /// Something listens on the peer's link endpoint (a file nobody listens on does not count): a link
    /// can be made, launching the app if needed. False when the device is off.
    public var listening: Bool
    /// The peer app's process is running (its control endpoint answers).
    public var running: Bool
    /// The peer app announced content waiting for this side (``Transport/announceContentPending(_:)``).
    public var contentPending: Bool
    /// The peer app's installation record (``Transport/publishInstallation(_:)``); installed when it has none.
    public var installation: AppInstallation
    /// The enablement of the peer's socket unit; nil when unknown (not under systemd).
    public var unitFileState: UnitFileState?

    /// Creates a presence.
    public init(
        listening: Bool, running: Bool, contentPending: Bool = false,
        installation: AppInstallation = AppInstallation(), unitFileState: UnitFileState? = nil
    ) {
        self.listening = listening
        self.running = running
        self.contentPending = contentPending
        self.installation = installation
        self.unitFileState = unitFileState
    }

    /// Whether the peer app counts as installed (``WatchState``).
    public var watchState: WatchState { WatchState(self) }
}

/// Why a transport operation failed.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of transport failure the engine tells apart.
    public enum Kind: Sendable, Hashable {
        /// Nothing listens at the peer's endpoint (absent, or refused).
        case peerUnavailable
        /// The connection was closed or reset.
        case connectionClosed
        /// The peer's credentials are not in the allowed set.
        case credentialsRejected
        /// Binding or adopting the listener failed.
        case listenFailed
        /// A file the transport keeps for the peer (the installation record) could not be written.
        case recordFailed
    }

    public var kind: Kind
    /// What was attempted and what the system said, including `errno` where there is one.
    public var detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { "\(kind): \(detail)" }
}
