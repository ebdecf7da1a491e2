import Glibc
import Logging
import ServiceLifecycle
import Systemd
import WatchPairCore
import WatchPairTransport
import WatchPairWire

/// What a daemon takes from its surroundings; tests replace the parts they control.
public struct DaemonEnvironment: Sendable {
    /// The clock of every timer (engine, idle exit, status, watchdog); tests pass a `ManualClock`.
    public var clock: any Clock<Duration>
    /// Sockets passed by systemd; nil reads them from `LISTEN_FDS` (`ListenFileDescriptors.fromEnvironment()`).
    public var listenFileDescriptors: ListenFileDescriptors?
    /// systemd notifications (skipped outside systemd).
    public var notifier: SystemdNotifications
    /// Where diagnostic events are written; nil: per `log.destination` (`EventWriter.standard`).
    public var eventWriter: EventWriter?
    /// The pid reported by `status` and in stderr event lines.
    public var pid: Int32

    /// The daemons' real surroundings, or parts of them replaced.
    public init(
        clock: any Clock<Duration> = ContinuousClock(),
        listenFileDescriptors: ListenFileDescriptors? = nil,
        notifier: SystemdNotifications = .systemd(),
        eventWriter: EventWriter? = nil,
        pid: Int32 = getpid()
    ) {
        self.clock = clock
        self.listenFileDescriptors = listenFileDescriptors
        self.notifier = notifier
        self.eventWriter = eventWriter
        self.pid = pid
    }
}

/// Builds a daemon from its configuration: everything `main` and the tests run.
///
/// In order: opens the store; takes the link listener (the systemd fd named `listenFDName`, else binds
/// `paths.link` itself, mode 0600); decides the launch mode (`launch` when not `auto`; else background
/// iff systemd's listener already has a connection waiting, i.e. a peer started us; else foreground);
/// builds the transport and the engine; emits `backgroundLaunch` or `foregroundLaunch`; binds the control
/// socket (`paths.control`, mode 0600, a stale file removed); and assembles the services. Nothing runs
/// until ``Daemon/run(handlingSignals:)``; on failure everything acquired so far is released.
/// - Throws: ``DaemonError`` (`.store`, `.listen`, `.systemd`), each with what was attempted.
public func buildDaemon(
    configuration: DaemonConfiguration,
    logger: Logger,
    environment: DaemonEnvironment = DaemonEnvironment()
) async throws(DaemonError) -> Daemon {
    let name = configuration.daemonName
    let store: PairStore
    do {
        store = try await PairStore.open(configuration.storeConfiguration, logger: logger)
    } catch {
        throw DaemonError(.store, "cannot open the store in \(configuration.paths.state): \(error)")
    }

    // Whatever is acquired below is released again if a later step fails.
    var ownLinkSocket: ListeningSocket?
    func abandon(_ error: DaemonError) async -> DaemonError {
        if let socket = ownLinkSocket {
            socket.removeOwnedFile()
            _ = Glibc.close(socket.descriptor)
        }
        try? await store.close()
        return error
    }

    let listenerFD: Int32
    let adopted: Bool
    do throws(DaemonError) {
        let passed: ListenFileDescriptors
        if let given = environment.listenFileDescriptors {
            passed = given
        } else {
            do {
                passed = try ListenFileDescriptors.fromEnvironment()
            } catch {
                throw DaemonError(.systemd, "reading the sockets passed by systemd failed: \(error)")
            }
        }
        if let fd = passed.fd(named: configuration.listenFDName) {
            (listenerFD, adopted) = (fd, true)
            logger.info("adopted the link listener from systemd", metadata: ["fd": "\(fd)", "name": "\(configuration.listenFDName)"])
        } else {
            if !passed.isEmpty {
                logger.warning(
                    "systemd passed sockets but none named listenFDName; binding the link socket instead",
                    metadata: ["listenFDName": "\(configuration.listenFDName)", "passed": "\(passed.all.map(\.name))"])
            }
            let socket = try ListeningSocket.bindOwned(configuration.paths.link, logger: logger)
            ownLinkSocket = socket
            (listenerFD, adopted) = (socket.descriptor, false)
        }
    } catch {
        throw await abandon(error)
    }

    let launch: LaunchMode = switch configuration.launch {
    case .foreground: .foreground
    case .background: .background
    case .auto: adopted && hasPendingConnection(listeningFD: listenerFD) ? .background : .foreground
    }

    let transport = UnixSocketTransport(
        configuration: UnixSocketTransportConfiguration(
            listener: .adopt(fileDescriptor: listenerFD),
            peerLinkPath: configuration.paths.peerLink,
            peerControlPath: configuration.paths.peerControl,
            allowedUIDs: configuration.allowedUIDs
        ),
        logger: logger
    )
    let engine: PairEngine
    do {
        engine = try await PairEngine(
            configuration: configuration.engineConfiguration(launch: launch),
            store: store,
            transport: transport,
            clock: environment.clock,
            logger: logger
        )
    } catch {
        throw await abandon(DaemonError(.store, "cannot read the store in \(configuration.paths.state): \(error)"))
    }

    // Subscribe before the first event so the sink sees every one.
    let subscription = engine.diagnostics.subscribe()
    let how = adopted ? "socket activation" : "started directly"
    engine.diagnostics.emit(
        DiagnosticEvent(
            launch == .background ? .backgroundLaunch : .foregroundLaunch, role: configuration.role,
            "\(name) launched in the \(launch.rawValue) (\(how)\(configuration.launch == .auto ? "" : ", configured"))"))

    let controlSocket: ListeningSocket
    do {
        controlSocket = try ListeningSocket.bindOwned(configuration.paths.control, logger: logger)
    } catch {
        throw await abandon(error)
    }

    let eventLog = EventLog()
    let router = MessageRouter(engine: engine, clock: environment.clock)
    let pid = environment.pid
    let controlServer = ControlServer(socket: controlSocket, router: router, logger: logger) { server in
        ControlHandler(
            engine: engine, store: store, router: router, events: eventLog, pid: pid,
            clientCount: { server.attachedClients })
    }
    let writer = environment.eventWriter ?? .standard(destination: configuration.log.destination, identifier: name, pid: pid)
    let clock = environment.clock
    let notifier = environment.notifier
    let idleExit = configuration.timeouts.idleExit

    return Daemon(
        configuration: configuration, launch: launch, engine: engine, store: store,
        controlServer: controlServer, ownLinkSocket: ownLinkSocket, logger: logger
    ) { daemon in
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: EventSink(events: subscription, log: eventLog, writer: writer), serviceName: "events"),
            .init(service: EngineService(engine: engine), serviceName: "engine"),
        ]
        if launch == .background {
            let monitor = IdleExitMonitor(engine: engine, server: controlServer, idleExit: idleExit, clock: clock) { [weak daemon] in
                await daemon?.shutdown()
            }
            services.append(.init(service: monitor, serviceName: "idle-exit"))
        }
        services.append(.init(service: controlServer, serviceName: "control"))
        services.append(
            .init(
                service: SystemdNotifierService(
                    notifier: notifier, engine: engine, clientCount: { controlServer.attachedClients }, clock: clock),
                serviceName: "systemd"))
        return services
    }
}
