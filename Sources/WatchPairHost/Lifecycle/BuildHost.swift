import Glibc
import Logging
import ServiceLifecycle
import Synchronization
import Systemd
import WatchPairCore
import WatchPairTransport
import WatchPairWire

/// What a host takes from its surroundings; tests replace the parts they control.
public struct HostEnvironment: Sendable {
    /// The clock of every timer (engine, idle exit, status, watchdog); tests pass a `ManualClock`.
    public var clock: any Clock<Duration>
    /// The engine's wall time (the day its complication budget counts); nil: the real time. Tests pin it.
    public var wallClock: WallClock?
    /// Sockets passed by systemd; nil reads them from `LISTEN_FDS` (``LinkListener/passedBySystemd()``).
    public var listenFileDescriptors: ListenFileDescriptors?
    /// systemd notifications (skipped outside systemd).
    public var notifier: SystemdNotifications
    /// Where diagnostic events are written; nil: per `log.destination` (`EventWriter.standard`).
    public var eventWriter: EventWriter?
    /// The pid reported by `status` and in stderr event lines.
    public var pid: Int32
    /// The link to use instead of Unix sockets (an in-memory one in tests): then no link listener and
    /// no control socket are bound, and presence comes from this transport.
    public var transport: (any Transport)?
    /// Whether a background launch exits after `timeouts.idleExit` with nothing to do (the daemons);
    /// false for an app, which decides its own life.
    public var exitsWhenIdle: Bool
    /// The executor the engine's task prefers (SE-0417); nil: the default. A `WCSession` app passes
    /// ``EngineExecutor/executor`` so callers blocked in Apple's synchronous calls never starve it.
    public var taskExecutor: (any TaskExecutor)?
    /// The loop all the host's sockets (link and control clients) run on; nil: the next loop of NIO's
    /// shared group. A `WCSession` app passes ``EngineExecutor/socketLoop``, the thread its engine runs on.
    public var socketLoop: SocketEventLoop?
    /// Whether received files are put in the app's `files/` directory as they arrive
    /// (``FileLandingService``), as the daemons do; a `WCSession` app sets it false: its delegate gets them.
    public var landsReceivedFiles = true

    /// The real surroundings, or parts of them replaced.
    public init(
        clock: any Clock<Duration> = ContinuousClock(),
        listenFileDescriptors: ListenFileDescriptors? = nil,
        notifier: SystemdNotifications = .systemd(),
        eventWriter: EventWriter? = nil,
        pid: Int32 = getpid(),
        transport: (any Transport)? = nil,
        exitsWhenIdle: Bool = true,
        taskExecutor: (any TaskExecutor)? = nil
    ) {
        self.clock = clock
        self.listenFileDescriptors = listenFileDescriptors
        self.notifier = notifier
        self.eventWriter = eventWriter
        self.pid = pid
        self.transport = transport
        self.exitsWhenIdle = exitsWhenIdle
        self.taskExecutor = taskExecutor
    }
}

/// Builds the host of one app whose control socket serves `controlRouter`'s operations; see
/// ``buildHost(configuration:logger:environment:face:)``.
public func buildHost(
    configuration: HostConfiguration,
    logger: Logger,
    environment: HostEnvironment = HostEnvironment(),
    controlRouter: @escaping @Sendable (HostContext) -> ControlRouter
) async throws(HostError) -> PairHost {
    try await buildHost(configuration: configuration, logger: logger, environment: environment) { context in
        HostFace(controlRouter: controlRouter(context))
    }
}

/// Builds the host of one app from its configuration: what `phoned`, `watchd` and the tests run.
///
/// In order: opens the store; takes the link listener (``LinkListener/open(_:passed:logger:)``);
/// decides the launch mode (``LinkListener/launchMode(_:)``); builds the transport and the engine;
/// emits `backgroundLaunch` or `foregroundLaunch`; binds the control socket (`paths.control`, mode
/// 0660 in the daemon's group, a stale file removed; refused clients become `controlClientRefused`) served
/// by the handler of the ``HostFace`` that `face` makes (once, with the host's context); loads the event history of earlier runs (``EventHistory``, in the
/// store's directory); and assembles the services.
/// With `environment.transport` set (an in-memory link), neither socket is bound and the launch is as
/// configured (`auto`: foreground).
/// Nothing runs until ``PairHost/run(handlingSignals:)``; on failure everything acquired so far is released.
/// - Throws: ``HostError`` (`.store`, `.listen`, `.systemd`), each with what was attempted.
public func buildHost(
    configuration: HostConfiguration,
    logger: Logger,
    environment: HostEnvironment = HostEnvironment(),
    face makeFace: @escaping @Sendable (HostContext) -> HostFace
) async throws(HostError) -> PairHost {
    let name = configuration.daemonName
    let store: PairStore
    do {
        store = try await PairStore.open(configuration.store, logger: logger, loops: .nio)
    } catch {
        throw HostError(.store, "cannot open the store in \(configuration.store.directory): \(error)")
    }

    // The link listener, unless the caller brought its own transport.
    let link: LinkListener?
    do throws(HostError) {
        link = environment.transport == nil
            ? try LinkListener.open(configuration, passed: environment.listenFileDescriptors, logger: logger) : nil
    } catch {
        try? await store.close()
        throw error
    }
    // Whatever was acquired is released again if a later step fails.
    func abandon(_ error: HostError) async -> HostError {
        link?.release()
        try? await store.close()
        return error
    }

    // The peer link and the control clients share one event loop, so a control request that goes to the
    // peer and back, and a peer message that goes to a control client, stay on one thread (SocketEventLoop).
    let socketLoop = environment.socketLoop ?? SocketEventLoop.next()
    let transport: any Transport
    if let given = environment.transport {
        transport = given
    } else {
        var transportConfiguration = configuration.transport
        transportConfiguration.listener = .adopt(fileDescriptor: link!.descriptor)
        if link?.adopted == true {
            // Under systemd the peer app is not installed while its socket unit is masked or has no unit file;
            // a named pair's units are instances of the template units (`watchd@NAME.socket`).
            let (role, pair) = (configuration.role, configuration.pair)
            transportConfiguration.peerSocketUnit = UnitFileStateProbe(
                unit: PairName.unit(of: role.peer, kind: .socket, pair: pair), ownUnit: PairName.unit(of: role, kind: .socket, pair: pair))
        }
        transport = UnixSocketTransport(configuration: transportConfiguration, loop: socketLoop, logger: logger)
    }
    let launch = link?.launchMode(configuration.launch) ?? (configuration.launch == .background ? .background : .foreground)

    var engineConfiguration = configuration.engine
    engineConfiguration.launch = launch
    let engine: PairEngine
    do {
        engine = try await PairEngine(
            configuration: engineConfiguration,
            store: store,
            transport: transport,
            clock: environment.clock,
            logger: logger,
            wallClock: environment.wallClock,
            executor: socketLoop.serialExecutor
        )
    } catch {
        throw await abandon(HostError(.store, "cannot read the store in \(configuration.store.directory): \(error)"))
    }

    // Subscribe before the first event so the sink sees every one.
    let subscription = engine.diagnostics.subscribeInBatches()
    let how = link?.adopted == true ? "socket activation" : "started directly"
    engine.diagnostics.emit(
        DiagnosticEvent(
            launch == .background ? .backgroundLaunch : .foregroundLaunch, role: configuration.role,
            "\(name) launched in the \(launch.rawValue) (\(how)\(configuration.launch == .auto ? "" : ", configured"))"))

    // Earlier runs' events first, so `wcctl events` shows the history before this launch; read when a
    // query first needs them, so a launch costs the same whatever the history's size.
    let (history, earlier) = EventHistory.open(directory: configuration.store.directory, logger: logger)
    let eventLog = EventLog(capacity: 2 * EventHistory.defaultSegmentLimit, earlier: earlier)
    let pid = environment.pid
    let clock = environment.clock
    let writer =
        environment.eventWriter
        ?? .standard(destination: configuration.log.destination, identifier: name, pair: PairName.label(of: configuration.pair), pid: pid)
    // The face exists before the server it serves; it reads the server's client count through this.
    let serverReference = ControlServerReference()
    let face = makeFace(
        HostContext(
            engine: engine, store: store, events: eventLog, clock: clock, pid: pid,
            clientCount: { serverReference.server.withLock { $0?.attachedClients ?? 0 } },
            pair: PairName.label(of: configuration.pair), eventLinesDropped: writer.dropped))
    var controlServer: ControlServer?
    if environment.transport == nil {
        do {
            let role = configuration.role
            let diagnostics = engine.diagnostics
            let refused: @Sendable (PeerCredentials, String) -> Void = { peer, reason in
                diagnostics.emit(DiagnosticEvent(.controlClientRefused, role: role, "control client refused (\(peer)): \(reason)"))
            }
            let server = try ControlServer.bind(path: configuration.control.path, logger: logger, refused: refused, loop: socketLoop, router: face.controlRouter)
            serverReference.server.withLock { $0 = server }
            controlServer = server
        } catch {
            history?.close()
            throw await abandon(error)
        }
    }
    let notifier = environment.notifier
    let idleExit = configuration.idleExit
    let exitsWhenIdle = environment.exitsWhenIdle
    let executor = environment.taskExecutor
    let landsReceivedFiles = environment.landsReceivedFiles

    return PairHost(
        configuration: configuration, launch: launch, engine: engine, store: store, transport: transport,
        controlServer: controlServer, link: link, faceService: face.service, logger: logger
    ) { [controlServer] host in
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: EventSink(events: subscription, log: eventLog, writer: writer, history: history), serviceName: "events"),
            .init(service: EngineService(engine: engine, executor: executor), serviceName: "engine"),
        ]
        if let service = face.service {
            services.append(.init(service: service, serviceName: "face"))
        }
        if launch == .background, exitsWhenIdle {
            let monitor = IdleExitMonitor(engine: engine, server: controlServer, idleExit: idleExit, clock: clock) { [weak host] in
                await host?.shutdown()
            }
            services.append(.init(service: monitor, serviceName: "idle-exit"))
        }
        if let controlServer {
            services.append(.init(service: controlServer, serviceName: "control"))
        }
        if landsReceivedFiles {
            let files = AppFilesDirectory(stateDirectory: configuration.paths.state)
            services.append(.init(service: FileLandingService(engine: engine, files: files, logger: logger), serviceName: "files"))
        }
        services.append(
            .init(
                service: SystemdNotifierService(
                    notifier: notifier, engine: engine, clientCount: { controlServer?.attachedClients ?? 0 }, clock: clock),
                serviceName: "systemd"))
        return services
    }
}

/// The control server, once bound, for a face made before it.
private final class ControlServerReference: Sendable {
    let server = Mutex<ControlServer?>(nil)
}
