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
    func serve(_ handler: @escaping @Sendable (any TransportConnection) async -> Void) async throws

    /// Opens a connection to the peer's link endpoint.
    ///
    /// With systemd socket activation this may launch the peer app in the background. Throws
    /// `TransportError` when the peer's endpoint is absent or refuses.
    func connect() async throws -> any TransportConnection

    /// Whether something listens on the peer's link endpoint and whether the peer app itself is running,
    /// found without connecting to the link (so nothing is launched by asking).
    func peerPresence() async -> PeerPresence

    /// Yields whenever the peer's endpoints may have changed (appeared or vanished), or its content
    /// announcement changed, so the engine can react at once instead of polling. Finishes when the
    /// calling task is cancelled.
    func peerChanges() -> AsyncStream<Void>

    /// Tells the peer whether this app has content waiting for it (userInfo, context, files), so that a
    /// peer that starts while this app is stopped launches it to deliver (DESIGN §3: content outlives its
    /// sender). The announcement lives outside this app's process, so it holds after the app stopped or
    /// crashed; the peer reads it as ``PeerPresence/contentPending``.
    func announceContentPending(_ pending: Bool) async
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
}

extension TransportConnection {
    /// Never writes without suspending: for transports that have no cheap way to tell whether a write
    /// would wait (``write(_:)`` is always correct).
    public func writeNow(_ bytes: [UInt8]) -> Bool { false }

    /// Nothing to wait for: for transports whose ``write(_:)`` returns only once the peer's side holds the bytes.
    public func flush() async {}
}

/// What can be known about the peer app without connecting to its link endpoint.
public struct PeerPresence: Sendable, Hashable {
    /// Something listens on the peer's link endpoint (a file nobody listens on does not count): the app is installed (`isWatchAppInstalled`).
    public var installed: Bool
    /// The peer app's process is running (its control endpoint answers).
    public var running: Bool
    /// The peer app announced content waiting for this side (``Transport/announceContentPending(_:)``).
    public var contentPending: Bool

    public init(installed: Bool, running: Bool, contentPending: Bool = false) {
        self.installed = installed
        self.running = running
        self.contentPending = contentPending
    }
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
