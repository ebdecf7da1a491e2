import ServiceLifecycle
import WatchPairCore

/// Runs the engine (the peer link) until the daemon stops.
struct EngineService: Service {
    let engine: PairEngine

    /// Serves until graceful shutdown or cancellation; throws only when the link listener fails.
    func run() async throws {
        let engine = self.engine
        do {
            try await cancelWhenGracefulShutdown {
                try await engine.run()
            }
        } catch is CancellationError {
            return
        }
    }
}
