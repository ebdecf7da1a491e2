import Synchronization
import WatchPairCore

/// Wraps the session's transport to notice when its listener fails, so the session can deactivate.
///
/// The engine's `run()` keeps running (without a listener) when `serve` throws; the session instead
/// treats a broken listener as the end of the activation (`sessionDidBecomeInactive`, then
/// `sessionDidDeactivate`), after which the app may activate again.
final class MonitoredTransport: Transport {
    let base: any Transport
    private let failure = Mutex<(any Error)?>(nil)
    private let failed = AsyncSignal()

    init(_ base: any Transport) {
        self.base = base
    }

    func serve(_ handler: @escaping @Sendable (any TransportConnection) async -> Void) async throws {
        do {
            try await base.serve(handler)
        } catch {
            if !Task.isCancelled {
                failure.withLock { $0 = error }
                failed.fire()
            }
            throw error
        }
    }

    /// Returns the listener's error once `serve` has failed; returns nil if the task is cancelled first.
    func listenerFailure() async -> (any Error)? {
        while !Task.isCancelled {
            let seen = failed.generation
            if let error = failure.withLock({ $0 }) { return error }
            await failed.wait(after: seen)
        }
        return nil
    }

    func connect() async throws -> any TransportConnection { try await base.connect() }
    func peerPresence() async -> PeerPresence { await base.peerPresence() }
    func peerChanges() -> AsyncStream<Void> { base.peerChanges() }
}
