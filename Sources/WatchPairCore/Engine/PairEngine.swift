import Foundation
import Logging
import WatchPairWire

/// One side of the WatchConnectivity link: the three channels, their durable state and the link policy.
///
/// The engine owns no sockets: it reaches the peer through a `Transport` and keeps everything accepted
/// in a `PairStore`. Create it with the store already open, call `run()` (it serves until cancelled),
/// and use the channel API from any task:
/// - `sendMessage` — live, fails at once with 7007 when the peer is not reachable;
/// - `transferUserInfo` — durable FIFO, delivered exactly once even across crashes;
/// - `updateApplicationContext` — durable, last value wins.
///
/// What arrives for the app is kept in the store until the app acknowledges it (`pendingUserInfo` /
/// `acknowledgeUserInfo`, …); `appSignal` fires whenever there is something new. Diagnostic events
/// are published on `diagnostics`.
public actor PairEngine {
    /// This side's configuration.
    public nonisolated let configuration: EngineConfiguration
    /// Every diagnostic event the engine produces.
    public nonisolated let diagnostics: DiagnosticsHub
    /// Fires when something arrives for the app (userInfo, context, finished transfers).
    public nonisolated let appSignal = AsyncSignal()
    /// Fires when reachability or the link state changes.
    public nonisolated let stateSignal = AsyncSignal()

    let store: PairStore
    let transport: any Transport
    let clock: any Clock<Duration>
    let logger: Logger
    let jitter: @Sendable () -> Double
    nonisolated var role: Role { configuration.role }

    /// Fires on new outbox content, acknowledgements, context changes and link changes.
    let contentSignal = AsyncSignal()

    // Link state.
    var links: [UInt64: Link] = [:]
    var current: Link?
    var nextLinkId: UInt64 = 0
    var spawner: AsyncStream<Link>.Continuation?
    var connecting = false
    var reconnect: ReconnectStateMachine
    var holdOff: Duration?
    var backoffUntilProgress = false
    var peerPresence = PeerPresence(installed: false, running: false)
    var presenceProbesStarted: UInt64 = 0
    var presenceProbeApplied: UInt64 = 0
    /// The peer store the links talk to, and what it has acknowledged of this side's outbox (sender side).
    var peerStoreId: UUID?
    var peerAckedUpTo: UInt64 = 0
    /// Highest userInfo seq this side durably holds from the peer store (receiver side).
    var peerHeldUpTo: UInt64 = 0
    var lastReachable = false

    // Messages.
    var nextMessageId: UInt64 = 0
    var pending: [UInt64: PendingMessage] = [:]
    var messageHandler: MessageHandler?
    var incomingInFlight = 0

    /// Transfers not yet acknowledged by the peer: the store's count as of its last commit. Derived, not
    /// kept here: a counter bumped after `enqueue` returned could miss an acknowledgement that the
    /// pump and the peer completed while the enqueue was still resuming, and stay above zero for good.
    var outstandingCount: Int { store.queueLengths.outstanding }

    // Caches of durable counters, so status and link decisions do not hit the store.
    var sentContextVersion: UInt64
    var peerContextAck: UInt64
    var receivedContextVersion: UInt64

    /// Loads the caches from `store`. Throws when the store cannot be read.
    public init(
        configuration: EngineConfiguration,
        store: PairStore,
        transport: any Transport,
        clock: any Clock<Duration> = ContinuousClock(),
        diagnostics: DiagnosticsHub = DiagnosticsHub(),
        logger: Logger,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) async throws(StoreError) {
        self.configuration = configuration
        self.store = store
        self.transport = transport
        self.clock = clock
        self.diagnostics = diagnostics
        self.logger = logger
        self.jitter = jitter
        self.reconnect = ReconnectStateMachine(policy: configuration.backoff)
        self.sentContextVersion = try await store.sentContext()?.version ?? 0
        self.peerContextAck = try await store.peerContextAck()
        self.receivedContextVersion = try await store.receivedContext()?.version ?? 0
    }

    /// Serves the link until the calling task is cancelled: accepts the peer's connections, connects to
    /// the peer when there is something to deliver (or, in the foreground, when the peer app runs),
    /// and keeps established links alive. Throws only when the transport cannot listen.
    public func run() async throws {
        let (spawned, spawner) = AsyncStream.makeStream(of: Link.self, bufferingPolicy: .unbounded)
        self.spawner = spawner
        await refreshPeerPresence()
        emit(.sessionActivated, "\(role.daemonName) activated (\(configuration.launch.rawValue) launch, store \(store.storeId))")
        do {
            // Every loop is a child, so the group ends (and run() returns or throws) when the task is
            // cancelled or any child fails, e.g. the listener cannot be set up.
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask {
                    try await self.transport.serve { connection in
                        await self.runAccepted(connection)
                    }
                }
                group.addTask { await self.watchPeer() }
                group.addTask { await self.driveLink() }
                group.addTask { await self.pumpOutbox() }
                group.addTask { await self.pumpContext() }
                // Links this side opens run here, as children of run(), so cancellation reaches them.
                group.addTask {
                    await withDiscardingTaskGroup { links in
                        for await link in spawned {
                            links.addTask { await self.runLink(link) }
                        }
                    }
                }
            }
        } catch {
            await stopLinks()
            throw error
        }
        await stopLinks()
    }

    /// After `run()`: no more links are spawned, and links that were spawned but never ran are failed,
    /// so nobody waits on their handshake.
    func stopLinks() async {
        spawner?.finish()
        spawner = nil
        for link in links.values {
            await link.close(.shutdown)
            linkClosed(link)
        }
    }

    /// A snapshot for `status`.
    public func status() async -> EngineStatus {
        let inbox = (try? await store.inboxCount()) ?? 0
        return EngineStatus(
            role: role,
            activated: spawner != nil,
            launch: configuration.launch,
            reachable: isReachable,
            paired: true,
            peerInstalled: peerPresence.installed || current != nil,
            peerRunning: peerPresence.running || current != nil,
            link: linkDescription,
            peerLaunch: current?.peerHello?.launch,
            outstandingTransfers: outstandingCount,
            inboxPending: inbox,
            contextSentVersion: sentContextVersion,
            contextAckedVersion: peerContextAck,
            contextReceivedVersion: receivedContextVersion
        )
    }

    /// `isReachable` (DESIGN.md §3): the phone needs a handshaken link to a foreground watch app;
    /// the watch needs the phone app installed (its link can be made, launching it if needed).
    public var isReachable: Bool {
        switch role {
        case .phone:
            return current?.peerHello?.launch == .foreground
        case .watch:
            return current != nil || peerPresence.installed
        }
    }

    var linkDescription: String {
        if current != nil { return "connected" }
        if connecting || links.isEmpty == false { return "connecting" }
        if reconnect.isTimedOut { return "disconnected: timed out" }
        return "disconnected"
    }

    /// Installs (or removes, with nil) the app's handler for live messages.
    public func setMessageHandler(_ handler: MessageHandler?) {
        messageHandler = handler
    }

    /// Whether the peer has something waiting from this side or is owed a link for presence.
    var needsLink: Bool {
        outstandingCount > 0 || sentContextVersion > peerContextAck || wantsPresenceLink
    }

    /// A foreground phone app links to a running watch app so both see each other as reachable.
    /// Only the phone does this, so two apps starting together do not race to open two links.
    var wantsPresenceLink: Bool {
        role == .phone && configuration.launch == .foreground && peerPresence.running
    }

    /// Records a diagnostic event and logs it.
    func emit(
        _ kind: DiagnosticEvent.Kind,
        _ message: String,
        channel: DiagnosticEvent.Channel? = nil,
        transferId: UUID? = nil,
        seq: UInt64? = nil,
        errorCode: WCErrorCode? = nil,
        duration: Duration? = nil
    ) {
        let event = DiagnosticEvent(
            kind, role: role, message, channel: channel, transferId: transferId,
            seq: seq, errorCode: errorCode, duration: duration
        )
        diagnostics.emit(event)
    }

    /// Emits `reachabilityChanged` when `isReachable` flipped since the last call.
    func updateReachability() {
        let now = isReachable
        guard now != lastReachable else { return }
        lastReachable = now
        emit(.reachabilityChanged, "peer is \(now ? "reachable" : "not reachable")")
        stateSignal.fire()
    }
}

/// A message waiting for its reply, error, timeout or the loss of its link.
struct PendingMessage: Sendable {
    let outcome: OneShot<Result<MessageBody, WCFailure>>
    let linkId: UInt64
}

extension StoreError {
    /// The error as a channel caller sees it.
    var failure: WCFailure { WCFailure(wcCode, message) }
}
