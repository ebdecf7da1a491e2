import Logging
import WatchPairHost

/// A daemon's configuration: the host's (the names the daemons' code and tests grew up with).
public typealias DaemonConfiguration = HostConfiguration
/// What a daemon takes from its surroundings.
public typealias DaemonEnvironment = HostEnvironment
/// Why a daemon could not start or had to stop.
public typealias DaemonError = HostError
/// A built daemon: a host serving the daemons' control operations.
public typealias Daemon = PairHost

/// Builds a daemon: the host of `configuration` whose control socket serves every wcctl request
/// (``DaemonOperations``, docs/ControlProtocol.md), with the app's reliability layer (``AppConnection``) as
/// the host's face service. See `buildHost(configuration:logger:environment:face:)`. A phone with several
/// watches passes its ``PhoneWatches`` and `configuration` bound to one of them.
public func buildDaemon(
    configuration: DaemonConfiguration,
    logger: Logger,
    environment: DaemonEnvironment = DaemonEnvironment(),
    watches: PhoneWatches? = nil
) async throws(DaemonError) -> Daemon {
    let (directory, layer) = (configuration.store.directory, configuration.layer)
    return try await buildHost(configuration: configuration, logger: logger, environment: environment) { context in
        let router = MessageRouter(channels: context.channels, clock: context.clock)
        let connection = AppConnection(context: context, router: router, storageDirectory: directory, layer: layer, logger: logger)
        return HostFace(controlRouter: DaemonOperations.router(context: context, router: router, connection: connection, watches: watches), service: connection)
    }
}
