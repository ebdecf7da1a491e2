import WatchPairCore
import WatchPairHost

@testable import WatchConnectivity

// The tests look inside a session's host at its engine, through the host's own API (`PairHost.engine`);
// the session itself calls only the host's `AppChannels`.

extension SessionRuntime {
    /// The engine of the session's host.
    var engine: PairEngine { host.engine }
}

extension SessionOverrides {
    /// Overrides that run `hook` with the host's engine before activation completes.
    init(beforeActivationCompletes hook: @escaping @Sendable (PairEngine) async -> Void) {
        self.init(beforeActivationCompletes: { (host: PairHost) in await hook(host.engine) })
    }
}
