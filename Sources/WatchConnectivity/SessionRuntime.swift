import Logging
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// What one activation of a session holds: its host (store, link, control socket, engine, services),
/// the app's operations on it (``AppChannels``, all the session calls), and the configuration it was
/// built from.
struct SessionRuntime: Sendable {
    let host: PairHost
    let configuration: WCSessionConfiguration
    let clock: any Clock<Duration>
    let logger: Logger

    var channels: AppChannels { host.channels }
    var transport: any Transport { host.transport }
    var launch: LaunchMode { host.launch }
    /// The app's `files/` directory, where received files are handed to the delegate.
    var files: AppFilesDirectory { AppFilesDirectory(stateDirectory: configuration.stateDirectory) }

    /// Builds the host of one activation (not yet running) from the app's configuration and the test
    /// overrides; its blocking work runs on the host's executor. The logger gets the role as metadata.
    /// A phone bound to one of several `watches` also answers the watch operations on its control socket
    /// (`SessionWatchOperations`), for `session` configured by `base`.
    static func build(
        configuration: WCSessionConfiguration, overrides: SessionOverrides, logger: Logger,
        watches: (session: WCSession, base: WCSessionConfiguration, bound: String)? = nil
    ) async throws(HostError) -> SessionRuntime {
        var logger = logger
        logger[metadataKey: "role"] = "\(configuration.role.rawValue)"
        let clock = overrides.clock ?? ContinuousClock()
        var hostConfiguration = configuration.hostConfiguration
        // A phone bound to one of several watches listens in that watch's directory, which may not exist yet.
        if !configuration.watches.isEmpty, overrides.transport == nil { hostConfiguration.makeLinkDirectory() }
        if let keepAlive = overrides.keepAlive { hostConfiguration.keepAlive = keepAlive }
        var environment = HostEnvironment(
            clock: clock, eventWriter: .discard, transport: overrides.transport, exitsWhenIdle: false,
            taskExecutor: EngineExecutor.shared.executor)
        // The engine's tasks and the session's sockets on one thread: a frame read resumes the engine there.
        environment.socketLoop = EngineExecutor.shared.socketLoop
        environment.wallClock = overrides.wallClock
        // Files go to the delegate (`SessionDelivery`), not straight to the files/ directory.
        environment.landsReceivedFiles = false
        let host = try await buildHost(configuration: hostConfiguration, logger: logger, environment: environment) { context in
            var router = ControlRouter.statusOnly(context: context)
            if let watches {
                SessionWatchOperations(session: watches.session, configuration: watches.base, bound: watches.bound, channels: context.channels)
                    .register(on: &router)
            }
            return router
        }
        return SessionRuntime(host: host, configuration: configuration, clock: clock, logger: logger)
    }
}

/// What tests replace in a session: the transport (in-memory), the clock, and a pause before activation
/// completes. Apps never set these.
package struct SessionOverrides: Sendable {
    /// Used instead of Unix sockets; no socket is bound (presence comes from the transport).
    package var transport: (any Transport)?
    /// The engine's clock and the session's reply timeout clock.
    package var clock: (any Clock<Duration>)?
    /// The engine's wall time; nil: the real time.
    package var wallClock: WallClock?
    /// The engine's keep-alive policy.
    package var keepAlive: KeepAlivePolicy?
    /// Runs with the host after its engine started serving and before `activationDidCompleteWith` is
    /// enqueued (tests look inside the host through it).
    package var beforeActivationCompletes: (@Sendable (PairHost) async -> Void)?
    /// The session's logger.
    package var logger: Logger?
    /// How the test kit waits on the session's behalf (its pair's self-driving clock).
    package var waits: (any SessionWaits)?
    /// A phone with several watches: the link to each watch by name, used instead of `transport` while
    /// bound to that watch.
    package var watchTransports: [String: any Transport] = [:]

    /// These overrides while bound to `watch`: its link in place of ``transport``, if one is given.
    func forWatch(_ watch: PairName?) -> SessionOverrides {
        var overrides = self
        if let watch, let link = watchTransports[watch.rawValue] { overrides.transport = link }
        return overrides
    }

    package init(
        transport: (any Transport)? = nil, clock: (any Clock<Duration>)? = nil, keepAlive: KeepAlivePolicy? = nil,
        beforeActivationCompletes: (@Sendable (PairHost) async -> Void)? = nil, logger: Logger? = nil,
        waits: (any SessionWaits)? = nil, wallClock: WallClock? = nil
    ) {
        self.transport = transport
        self.clock = clock
        self.wallClock = wallClock
        self.keepAlive = keepAlive
        self.beforeActivationCompletes = beforeActivationCompletes
        self.logger = logger
        self.waits = waits
    }
}

/// How a test kit awaits something for a session: bounded, and driving the session's clock meanwhile
/// if the kit's pair has a self-driving one. Apps never see it.
package protocol SessionWaits: Sendable {
    /// Returns what `operation` returns, or throws its error, or a time-out error once `limit` passed.
    func wait<Value: Sendable>(
        _ what: String, within limit: Duration, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value
}
