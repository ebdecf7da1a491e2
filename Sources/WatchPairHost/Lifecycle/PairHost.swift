import Glibc
import Logging
import ServiceLifecycle
import Synchronization
import WatchPairCore
import WatchPairTransport
import WatchPairWire

/// The host of one app (a daemon, or a `WCSession` app), built and ready to run: the store is open, the
/// link listener and the control socket are bound.
///
/// Made by ``buildHost(configuration:logger:environment:controlRouter:)``. ``run(handlingSignals:)`` runs its
/// services in a `ServiceGroup` until SIGTERM/SIGINT (or ``shutdown()``, or the idle exit of a background
/// launch), then closes the store. Services, in start order (graceful shutdown runs in reverse): the
/// event sink, the engine, the face's service (``HostFace``, e.g. the daemons' reliability layer), the
/// idle-exit monitor (background launches only), the control server, the systemd notifier. So at
/// shutdown systemd hears `STOPPING=1` first, then the control socket is unlinked and its clients
/// closed, then the face's service stops (while the engine and the store still serve it), then the
/// link stops, and the last events are still written.
public final class PairHost: Sendable {
    /// The configuration it was built with.
    public let configuration: HostConfiguration
    /// How it was launched. What decides reachability and the idle exit is ``PairEngine/launch``, which
    /// moves to the foreground when the app is opened.
    public let launch: LaunchMode
    /// The engine serving the link.
    public let engine: PairEngine
    /// The durable store (closed when ``run(handlingSignals:)`` returns).
    public let store: PairStore
    /// What the app may do with this host (``AppChannels``): what `WCSession` and the daemons' faces use
    /// instead of ``engine`` and ``store``.
    public let channels: AppChannels

    /// The link the engine serves (Unix sockets, or the in-memory transport it was built with).
    public let transport: any Transport

    /// The control server (nil with an in-memory transport).
    let controlServer: ControlServer?
    /// The link listener: a self-bound one is unlinked and closed at exit (nil with an in-memory transport).
    let link: LinkListener?
    /// The face's service (``HostFace/service``), run in the group after the engine.
    let faceService: (any Service)?
    let logger: Logger
    let makeServices: @Sendable (PairHost) -> [ServiceGroupConfiguration.ServiceConfiguration]

    private enum GroupState {
        case notStarted
        case running(ServiceGroup)
        case shutdownRequested
        case finished
    }

    private let group = Mutex(GroupState.notStarted)

    init(
        configuration: HostConfiguration,
        launch: LaunchMode,
        engine: PairEngine,
        store: PairStore,
        transport: any Transport,
        controlServer: ControlServer?,
        link: LinkListener?,
        faceService: (any Service)? = nil,
        logger: Logger,
        makeServices: @escaping @Sendable (PairHost) -> [ServiceGroupConfiguration.ServiceConfiguration]
    ) {
        self.configuration = configuration
        self.launch = launch
        self.engine = engine
        self.store = store
        channels = AppChannels(engine: engine, store: store)
        self.transport = transport
        self.controlServer = controlServer
        self.link = link
        self.faceService = faceService
        self.logger = logger
        self.makeServices = makeServices
    }

    /// The number of control clients attached (connected and having sent a request).
    public var controlClients: Int { controlServer?.attachedClients ?? 0 }

    /// Runs until a graceful shutdown completes, then releases the sockets and closes the store.
    ///
    /// A graceful shutdown comes from SIGTERM or SIGINT (when `handlingSignals`; tests running several
    /// daemons in one process pass false; SIGHUP then opens the app, ``PairEngine/open()``), ``shutdown()``, or the idle exit. Cancelling the calling task stops everything at once instead. Runs once; a
    /// second call returns at once.
    /// - Throws: the first error of a failing service (e.g. ``HostError`` when the control socket
    ///   cannot be served, `TransportError` when the link listener fails).
    public func run(handlingSignals: Bool = true) async throws {
        var services = makeServices(self)
        if handlingSignals {
            services.append(.init(service: HangupOpensApp(engine: engine), serviceName: "sighup"))
        }
        let serviceGroup = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services,
                gracefulShutdownSignals: handlingSignals ? [.sigterm, .sigint] : [],
                logger: logger
            )
        )
        let (start, stopAtOnce) = group.withLock { state -> (Bool, Bool) in
            switch state {
            case .notStarted:
                state = .running(serviceGroup)
                return (true, false)
            case .shutdownRequested:
                state = .running(serviceGroup)
                return (true, true)
            case .running, .finished:
                return (false, false)
            }
        }
        guard start else { return }
        if stopAtOnce { await serviceGroup.triggerGracefulShutdown() }
        defer { group.withLock { $0 = .finished } }
        do {
            try await serviceGroup.run()
        } catch {
            await release()
            throw error
        }
        await release()
    }

    /// Starts a graceful shutdown (as SIGTERM would); if ``run(handlingSignals:)`` has not started
    /// yet, it will shut down as soon as it starts.
    public func shutdown() async {
        let running = group.withLock { state -> ServiceGroup? in
            switch state {
            case .notStarted:
                state = .shutdownRequested
                return nil
            case .running(let group):
                return group
            case .shutdownRequested, .finished:
                return nil
            }
        }
        await running?.triggerGracefulShutdown()
    }

    /// Unlinks and closes a self-bound link socket and closes the store.
    func release() async {
        link?.release()
        controlServer?.close()
        do {
            try await store.close()
        } catch {
            logger.error("closing the store failed", metadata: ["error": "\(error)"])
        }
    }
}
