import Foundation
import Testing
import Logging
import Synchronization
import WatchPairCore
import WatchPairTesting
import WatchPairTransport
import WatchPairWire

#if canImport(Glibc)
import Glibc
#endif

/// Tests report through events and assertions; log lines would only bury a failure's output.
let quietLogger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

/// The two transports every channel test runs over: one test body, two transports.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory, unixSocket
    var testDescription: String { rawValue }
}

/// Two engines linked through a real or in-memory transport, each with a real store in a temporary
/// directory, which a test can start, stop and "crash" (cancel without a goodbye) independently.
final class EnginePair: Sendable {
    let kind: TransportKind
    let directory: String
    let network = InMemoryNetwork()
    let clock: any Clock<Duration>
    let durability: Durability
    let configure: @Sendable (inout EngineConfiguration) -> Void
    /// Routes what each engine receives to its inbox queues (``PairEngine/routeInbox(_:)``); nil: the app's.
    let routeInbox: InboxRoute?
    private let sides = Mutex<[Role: RunningSide]>([:])
    /// Fires after every start and stop, for tests that follow restarts.
    let lifecycle = AsyncSignal()
    /// Every engine's wall time: pinned at the pair's start and moved by its clock, so a restarted engine
    /// counts the same day and no test meets the real midnight.
    let wallClock: WallClock

    /// The reply, handshake and final-write timeouts on the real clock, unless a test sets its own: longer
    /// than any test.
    static let realClockTimeout = Duration.seconds(3_600)

    struct RunningSide: Sendable {
        let engine: PairEngine
        let store: PairStore
        let task: Task<Void, Error>
        let beacon: ControlBeacon?
    }

    init(
        _ kind: TransportKind,
        clock: any Clock<Duration> = ContinuousClock(),
        durability: Durability = .process,
        configure: @escaping @Sendable (inout EngineConfiguration) -> Void = { _ in },
        routeInbox: InboxRoute? = nil
    ) throws {
        self.kind = kind
        self.clock = clock
        wallClock = WallClock(clock, origin: ManualClock.wallClockOrigin)
        self.durability = durability
        self.routeInbox = routeInbox
        self.configure = configure
        var template = Array("/tmp/wpe.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        directory = String(cString: made)
    }

    func path(_ role: Role, _ suffix: String) -> String { "\(directory)/\(role.daemonName).\(suffix)" }

    /// Where the Unix-socket transports look for the peer's socket unit links (`/etc/systemd/system`'s stand-in).
    var unitConfigurationDirectory: String { "\(directory)/systemd" }

    func transport(for role: Role) -> any Transport {
        switch kind {
        case .inMemory:
            return network.transport(for: role)
        case .unixSocket:
            var configuration = UnixSocketTransportConfiguration(
                listener: .bind(path: path(role, "sock")),
                peerLinkPath: path(role.peer, "sock"),
                peerControlPath: path(role.peer, "ctl")
            )
            configuration.contentMarkerPath = path(role, "sock") + UnixSocketTransportConfiguration.contentMarkerSuffix
            configuration.stateDirectory = path(role, "app")
            configuration.peerStateDirectory = path(role.peer, "app")
            configuration.peerSocketUnit = UnitFileStateProbe(
                unit: "\(role.peer.daemonName).socket", configurationDirectories: [unitConfigurationDirectory], unitDirectories: [])
            return UnixSocketTransport(configuration: configuration, logger: quietLogger)
        }
    }

    /// Starts `role`'s engine (opening its store) and returns it once it serves.
    @discardableResult
    func start(
        _ role: Role,
        launch: LaunchMode = .foreground,
        transport: (any Transport)? = nil,
        storeLimits: (outbox: Int, inbox: Int) = (10_000, 10_000)
    ) async throws -> PairEngine {
        var configuration = EngineConfiguration(role: role, launch: launch)
        configuration.keepAlive = KeepAlivePolicy(interval: nil)
        if !(clock is ManualClock) {
            // On the real clock a timer fires in a test only where the test sets it: on a loaded CI machine an
            // in-memory reply once took over the default 10 s, and its 7012 failed a test about something else.
            configuration.replyTimeout = Self.realClockTimeout
            configuration.handshakeTimeout = Self.realClockTimeout
            configuration.finalWriteTimeout = Self.realClockTimeout
        }
        configure(&configuration)
        let store = try await PairStore.open(
            StoreConfiguration(
                directory: "\(directory)/\(role.daemonName)-state", durability: durability,
                outboxLimit: storeLimits.outbox, inboxLimit: storeLimits.inbox
            ),
            logger: quietLogger
        )
        let engine = try await PairEngine(
            configuration: configuration, store: store, transport: transport ?? self.transport(for: role),
            clock: clock, logger: quietLogger, jitter: { 0.5 }, wallClock: wallClock
        )
        if let routeInbox { engine.routeInbox(routeInbox) }
        let activated = engine.diagnostics.subscribe()
        let task = Task { try await engine.run() }
        _ = await activated.first { $0.kind == .sessionActivated }
        switch kind {
        case .inMemory: await network.waitForServing(role)
        case .unixSocket: await waitForSocket(path(role, "sock"))
        }
        let beacon = kind == .unixSocket ? try ControlBeacon(path: path(role, "ctl")) : nil
        sides.withLock { $0[role] = RunningSide(engine: engine, store: store, task: task, beacon: beacon) }
        lifecycle.fire()
        return engine
    }

    /// Stops `role`'s engine abruptly (its run task is cancelled, its store closed), as a crash would.
    func stop(_ role: Role) async {
        guard let side = sides.withLock({ $0.removeValue(forKey: role) }) else { return }
        if let beacon = side.beacon {
            beacon.close()
            unlink(path(role, "ctl"))
        }
        side.task.cancel()
        _ = try? await side.task.value
        try? await side.store.close()
        lifecycle.fire()
    }

    func engine(_ role: Role) -> PairEngine? { sides.withLock { $0[role]?.engine } }

    /// The store of a running side (its counters: ``PairStore/statistics``).
    func store(_ role: Role) -> PairStore? { sides.withLock { $0[role]?.store } }

    func tearDown() async {
        await stop(.phone)
        await stop(.watch)
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func waitForSocket(_ path: String) async {
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: path) {
            await Task.yield()
            try? await Task.sleep(for: .milliseconds(2))
        }
    }
}

extension EnginePair {
    /// Starts the watch with `handler` for live messages, then the phone, and returns both once their link
    /// is up on both sides (so no handshake timer is left on a manual clock).
    func startLinked(watchHandler handler: MessageHandler) async throws -> (watch: PairEngine, phone: PairEngine) {
        let watch = try await start(.watch)
        await watch.setMessageHandler(handler)
        let phone = try await start(.phone)
        try await until("phone sees the watch", on: phone.stateSignal) { await phone.isReachable }
        try await until("watch linked", on: watch.stateSignal) { await watch.status().link == "connected" }
        return (watch, phone)
    }
}
