import Foundation
import Logging
import Synchronization
import WatchPairCore
import WatchPairHost
import WatchPairTransport
import WatchPairWire

/// What one activation of a session owns: the store, the engine, the transport, the host's link
/// listener and its control server.
///
/// Built by `start` (which fails activation with a clear error when a socket cannot be bound or the
/// store cannot be opened) and released by `close()` when the session stops.
final class SessionRuntime: Sendable {
    let configuration: WCSessionConfiguration
    let store: PairStore
    let engine: PairEngine
    let transport: MonitoredTransport
    /// How the app was started (configured, or detected from the passed link socket).
    let launch: LaunchMode
    let linkListener: LinkListener?
    /// The host's control server answering `status` (nil with an injected transport).
    let controlServer: ControlServer?
    let clock: any Clock<Duration>
    let logger: Logger
    private let socketsClosed = Mutex((control: false, link: false))

    private init(
        configuration: WCSessionConfiguration, store: PairStore, engine: PairEngine, transport: MonitoredTransport,
        launch: LaunchMode, linkListener: LinkListener?, controlServer: ControlServer?,
        clock: any Clock<Duration>, logger: Logger
    ) {
        self.configuration = configuration
        self.store = store
        self.engine = engine
        self.transport = transport
        self.launch = launch
        self.linkListener = linkListener
        self.controlServer = controlServer
        self.clock = clock
        self.logger = logger
    }

    /// Binds (or adopts) the link socket, opens the store, creates the engine and binds the control socket.
    ///
    /// With `overrides.transport` set (tests), no socket is bound: the given transport is used as is.
    /// - Throws: `WCError` 7001 (`genericError`) saying what could not be set up; nothing stays open.
    static func start(_ configuration: WCSessionConfiguration, overrides: SessionOverrides, logger: Logger) async throws(WCError) -> SessionRuntime {
        var configuration = configuration
        var linkListener: LinkListener?
        var controlSocketPath: String?
        let base: any Transport
        var launch = configuration.launch ?? .foreground
        do throws(HostError) {
            if let injected = overrides.transport {
                base = injected
            } else {
                let listener = try LinkListener.open(configuration.hostConfiguration, passed: nil, logger: logger)
                linkListener = listener
                if configuration.launch == nil { launch = listener.launchMode(.auto) }
                base = UnixSocketTransport(
                    configuration: UnixSocketTransportConfiguration(
                        listener: .adopt(fileDescriptor: listener.descriptor),
                        peerLinkPath: configuration.peerLinkSocketPath,
                        peerControlPath: configuration.peerControlSocketPath,
                        allowedUIDs: configuration.allowedUIDs
                    ),
                    logger: logger
                )
                controlSocketPath = configuration.controlSocketPath
            }
        } catch {
            linkListener?.release()
            throw WCError(.genericError, message: "WatchConnectivity could not listen: \(error)")
        }
        configuration.launch = launch
        let transport = MonitoredTransport(base)
        let store: PairStore
        do {
            store = try await PairStore.open(
                configuration.storeConfiguration,
                logger: logger
            )
        } catch {
            linkListener?.release()
            throw WCError(.genericError, message: "WatchConnectivity could not open its store: \(error)")
        }
        var engineConfiguration = configuration.engineConfiguration
        if let keepAlive = overrides.keepAlive { engineConfiguration.keepAlive = keepAlive }
        let clock = overrides.clock ?? ContinuousClock()
        let engine: PairEngine
        do {
            engine = try await PairEngine(
                configuration: engineConfiguration, store: store, transport: transport, clock: clock, logger: logger
            )
        } catch {
            try? await store.close()
            linkListener?.release()
            throw WCError(.genericError, message: "WatchConnectivity could not read its store: \(error)")
        }
        var controlServer: ControlServer?
        if let controlSocketPath {
            do {
                let events = EventLog(capacity: 1)
                controlServer = try ControlServer.bind(path: controlSocketPath, logger: logger) { server in
                    StatusControlHandler(
                        context: HostContext(
                            engine: engine, store: store, events: events, clock: clock, pid: getpid(),
                            clientCount: { server.attachedClients }))
                }
            } catch {
                try? await store.close()
                linkListener?.release()
                throw WCError(.genericError, message: "WatchConnectivity could not listen: \(error)")
            }
        }
        return SessionRuntime(
            configuration: configuration, store: store, engine: engine, transport: transport, launch: launch,
            linkListener: linkListener, controlServer: controlServer, clock: clock, logger: logger
        )
    }

    /// Closes the control socket (its file is removed): the counterpart no longer sees the app running.
    /// Idempotent.
    func closeControlSocket() {
        socketsClosed.withLock { closed in
            guard !closed.control else { return }
            closed.control = true
            controlServer?.close()
        }
    }

    /// Closes both listening sockets; self-bound socket files are removed. Idempotent.
    func closeSockets() {
        closeControlSocket()
        socketsClosed.withLock { closed in
            guard !closed.link else { return }
            closed.link = true
            linkListener?.release()
        }
    }

    /// Closes the sockets and the store. Call after the engine stopped.
    func close() async {
        closeSockets()
        do {
            try await store.close()
        } catch {
            logger.info("closing the store failed", metadata: ["error": "\(error)"])
        }
    }
}

/// What tests replace in a session: the transport (in-memory), the clock, and a pause before activation
/// completes. Apps never set these.
struct SessionOverrides: Sendable {
    /// Used instead of Unix sockets; no socket is bound (presence comes from the transport).
    var transport: (any Transport)?
    /// The engine's clock and the session's reply timeout clock.
    var clock: (any Clock<Duration>)?
    /// The engine's keep-alive policy.
    var keepAlive: KeepAlivePolicy?
    /// Runs after the engine started serving and before `activationDidCompleteWith` is enqueued.
    var beforeActivationCompletes: (@Sendable (PairEngine) async -> Void)?
    /// The session's logger.
    var logger: Logger?

    init(
        transport: (any Transport)? = nil, clock: (any Clock<Duration>)? = nil, keepAlive: KeepAlivePolicy? = nil,
        beforeActivationCompletes: (@Sendable (PairEngine) async -> Void)? = nil, logger: Logger? = nil
    ) {
        self.transport = transport
        self.clock = clock
        self.keepAlive = keepAlive
        self.beforeActivationCompletes = beforeActivationCompletes
        self.logger = logger
    }
}
