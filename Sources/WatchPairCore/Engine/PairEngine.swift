import Foundation
import Logging
import Synchronization
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
/// `acknowledgeUserInfo`, …); `appSignal` fires whenever there is something new, and `appChanges` says
/// what. Diagnostic events are published on `diagnostics`.
///
/// The actor holds the links and wires the executors: one per channel (``UserInfoChannel``,
/// ``ContextChannel``, ``MessageChannel``, ``FileChannel``, ``ComplicationChannel``), one per link
/// (``LinkSession``), the ``LinkDriver`` and the ``InstallationTracker``. They are
/// not `Sendable` and take the engine as an `isolated` parameter, so all of this state, and the links
/// it must agree with, lives in this one isolation domain; a new channel is a new folder and a new executor.
public actor PairEngine {
    /// This side's configuration.
    public nonisolated let configuration: EngineConfiguration
    /// Every diagnostic event the engine produces.
    public nonisolated let diagnostics: DiagnosticsHub
    /// What changed for the app, by kind (received userInfo, context and files, finished transfers).
    public nonisolated let appChanges = AppChanges()
    /// Fires when anything arrives for the app: ``appChanges``' `any`.
    public nonisolated var appSignal: AsyncSignal { appChanges.any }
    /// Fires when reachability or the link state changes.
    public nonisolated let stateSignal = AsyncSignal()
    /// Fires once, when the session is activated (`run()` serves; `status().activated`). Apart from
    /// ``stateSignal`` so that starting up does not count as a state change (the idle-exit timer).
    public nonisolated let activationSignal = AsyncSignal()
    /// Fires when a live message call starts or ends, in either direction (`status().messagesInFlight`).
    public nonisolated let messageSignal = AsyncSignal()

    /// How the app runs now: the launch it was started with (``EngineConfiguration/launch``) until
    /// ``open()`` brings a background launch to the foreground. A phone considers only a foreground watch
    /// reachable, and only a background launch exits when idle.
    public internal(set) var launch: LaunchMode

    let store: PairStore
    let transport: any Transport
    let clock: any Clock<Duration>
    let logger: Logger
    let jitter: @Sendable () -> Double
    nonisolated var role: Role { configuration.role }

    /// Fires on new outbox content, acknowledgements, context changes and link changes (what
    /// `status().outstandingTransfers` and the context versions follow).
    public nonisolated let contentSignal = AsyncSignal()

    // Link state.
    var links: [UInt64: Link] = [:]
    var current: Link?
    var nextLinkId: UInt64 = 0
    var spawner: AsyncStream<Link>.Continuation?
    /// Makes the links this side needs, with presence and backoff.
    let driver: LinkDriver
    /// Tells the peer whether content waits for it, so it can launch this app to deliver.
    let announcer = ContentAnnouncer()
    /// What the transport last said of the peer app.
    var peerPresence: PeerPresence { driver.presence }
    /// The userInfo channel: its machines and its outbox pump.
    let userInfo = UserInfoChannel()
    /// Route each received userInfo to its consumer's ``InboxQueue`` on arrival; none: all are the app's.
    /// Added by the host's face before the engine runs (``routeInbox(_:)``), read once per received batch.
    nonisolated let inboxRoutes = Mutex<[InboxRoute]>([])
    /// This side refused the peer's transfers for lack of inbox room: once the app has made room, it
    /// links to the (running) peer, which tells the peer to resume at once.
    var owesRoom = false
    var lastReachable = false
    /// This app's installation record and the peer's installation state.
    let installations = InstallationTracker()

    /// Work that outlives the call starting it, run as children of `run()` (``EngineWork``).
    nonisolated let work = EngineWork()

    /// The message channel: calls in progress, the app's handler.
    let messages: MessageChannel

    /// Transfers not yet acknowledged by the peer: the store's count as of its last commit. Derived, not
    /// kept here: a counter bumped after `enqueue` returned could miss an acknowledgement that the
    /// pump and the peer completed while the enqueue was still resuming, and stay above zero for good.
    var outstandingCount: Int { store.queueLengths.outstanding }

    /// The context channel: its machine, cached versions and its pump.
    let context: ContextChannel

    /// The file channel: its machines, the file in flight each way, and its pump.
    let files: FileChannel

    /// The complication budget: how many complication transfers are left today.
    let complications: ComplicationChannel

    /// The quirks of real devices set on this side and what they hold back; empty unless set.
    let quirks: EngineQuirks

    /// Where the actor runs: the event loop of the host's sockets, so that a channel handler reading the
    /// link on that loop is already on the engine and hands it the frames without a task
    /// (`assumeIsolated`); without one, a dispatch queue of its own.
    public nonisolated let executor: any SerialExecutor

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Loads the caches from `store`. Throws when the store cannot be read. `wallClock` is where the
    /// engine's days are counted from (nil: the real time moved by `clock`; a test pins it).
    public init(
        configuration: EngineConfiguration,
        store: PairStore,
        transport: any Transport,
        clock: any Clock<Duration> = ContinuousClock(),
        diagnostics: DiagnosticsHub = DiagnosticsHub(),
        logger: Logger,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        wallClock: WallClock? = nil,
        executor: (any SerialExecutor)? = nil
    ) async throws(StoreError) {
        self.executor = executor ?? QueueExecutor(label: "watchpair.engine.\(configuration.role.rawValue)")
        self.configuration = configuration
        self.launch = configuration.launch
        self.store = store
        self.transport = transport
        self.clock = clock
        self.diagnostics = diagnostics
        self.logger = logger
        self.jitter = jitter
        self.driver = LinkDriver(backoff: configuration.backoff)
        self.context = ContextChannel(
            sender: ContextSender(
                sentVersion: try await store.contexts.sentContext()?.version ?? 0, peerAck: try await store.contexts.peerContextAck()),
            receivedVersion: try await store.contexts.receivedContext()?.version ?? 0)
        self.files = FileChannel(configuration: configuration)
        self.messages = MessageChannel(clock: clock, signal: messageSignal)
        self.quirks = EngineQuirks(configuration.quirks, clock: clock)
        self.complications = ComplicationChannel(
            budget: ComplicationBudget(dailyLimit: configuration.complicationDailyBudget, state: try await store.complicationBudget()),
            wallClock: wallClock ?? WallClock(clock, origin: Date()))
    }

    /// Serves the link until the calling task is cancelled: accepts the peer's connections, connects to
    /// the peer when there is something to deliver (or, in the foreground, when the peer app runs),
    /// and keeps established links alive. Throws only when the transport cannot listen.
    public func run() async throws {
        // First: whoever sees the session activated must see the quirks' launch state.
        if !quirks.isEmpty { quirksAtActivation() }
        let (spawned, spawner) = AsyncStream.makeStream(of: Link.self, bufferingPolicy: .unbounded)
        self.spawner = spawner
        await installations.load(self)
        await refreshPeerPresence()
        installations.update(self)
        emit(.sessionActivated, "\(role.daemonName) activated (\(launch.rawValue) launch, store \(store.storeId))")
        activationSignal.fire()
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
                group.addTask { await self.pumpFiles() }
                group.addTask { await self.expireMessages() }
                group.addTask { await self.work.run() }
                group.addTask { await self.announceContent() }
                group.addTask { await self.runQuirkTimers() }
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

    /// The channels' pumps run on the actor, as children of `run()`.
    private func pumpOutbox() async { await userInfo.pump(self) }
    private func pumpContext() async { await context.pump(self) }
    private func pumpFiles() async { await files.pump(self) }
    private func expireMessages() async { await MessageChannel.expireCalls(self) }
    private func watchPeer() async { await driver.watchPeer(self) }
    private func announceContent() async {
        contentPendingMayHaveChanged()
        await announcer.run(self)
    }
    private func driveLink() async { await driver.drive(self) }
    func refreshPeerPresence() async { await driver.refreshPresence(self) }

    /// After `run()`: no more links are spawned, and links that were spawned but never ran are failed,
    /// so nobody waits on their handshake.
    func stopLinks() async {
        work.finish()
        spawner?.finish()
        spawner = nil
        for link in links.values {
            await link.close(.shutdown)
            linkClosed(link)
        }
    }

    /// A snapshot for `status`.
    public func status() async -> EngineStatus {
        await EngineStatus(self)
    }

    /// `isReachable` (docs/Lifecycle.md): the phone needs a handshaken link to a foreground watch app;
    /// the watch needs the phone app installed (its link can be made, launching it if needed).
    /// A quirk may change what this reads (``quirkReachability(_:)``).
    public var isReachable: Bool {
        quirks.isEmpty ? linkReachable : quirkReachability(linkReachable)
    }

    /// Reachability as the link and the peer's presence give it.
    var linkReachable: Bool {
        LinkPolicy.isReachable(
            role: role, linkedPeerLaunch: current?.peerHello?.launch, linked: current != nil, presence: peerPresence)
    }

    var linkState: LinkState {
        LinkState(established: current != nil, opening: driver.connecting || !links.isEmpty, gaveUp: driver.reconnect.isTimedOut)
    }

    /// Installs (or removes, with nil) the app's handler for live messages.
    public func setMessageHandler(_ handler: MessageHandler?) {
        messages.handler = handler
    }

    /// Whether background content waits for the peer (such content may launch it).
    var hasContentForPeer: Bool {
        outstandingCount > 0 || context.hasContentForPeer || store.files.outstandingFileCount > 0
    }

    /// Records a diagnostic event and logs it.
    func emit(
        _ kind: DiagnosticEvent.Kind,
        _ message: String,
        channel: DiagnosticEvent.Channel? = nil,
        transferId: UUID? = nil,
        seq: UInt64? = nil,
        errorCode: WCErrorCode? = nil,
        duration: Duration? = nil,
        file: DiagnosticEvent.FileFields? = nil
    ) {
        let event = DiagnosticEvent(
            kind, role: role, message, channel: channel, transferId: transferId, file: file,
            seq: seq, errorCode: errorCode, duration: duration
        )
        diagnostics.emit(event)
    }

    /// New content was accepted: after a give-up, content is a reason to try the peer again at once.
    func contentArrived() {
        driver.contentArrived()
        contentPendingMayHaveChanged()
        contentSignal.fire()
    }

    /// Content for the peer was accepted, finished or cancelled: the announcement may need to change.
    func contentPendingMayHaveChanged() {
        announcer.note(hasContentForPeer)
    }

    /// Emits `reachabilityChanged` when `isReachable` flipped since the last call.
    func updateReachability() {
        if !quirks.isEmpty { quirkFollowsReachability() }
        let now = isReachable
        guard now != lastReachable else { return }
        lastReachable = now
        emit(.reachabilityChanged, "peer is \(now ? "reachable" : "not reachable")")
        stateSignal.fire()
    }
}
