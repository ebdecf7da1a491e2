import Foundation
import Synchronization
import WatchPairCore
import WatchPairHost

/// The session's `WCSessionUserInfoTransfer` objects (`TransferRegistry`) and the `transferUserInfo`
/// calls still registering theirs, so the object a call returns is the one later passed to `didFinish`.
///
/// Lives as long as the session, across activations.
final class SessionTransfers: Sendable {
    private struct State {
        var registry = TransferRegistry()
        /// `transferUserInfo` calls whose transfer object is not registered yet.
        var registrationsInProgress = 0
    }

    private let state = Mutex(State())
    /// Fires when a `transferUserInfo` call has registered its transfer object.
    private let registered = AsyncSignal()

    /// Runs a `transferUserInfo` call's `body`, during which `waitForRegistrations()` waits.
    func registering<T>(_ body: () -> T) -> T {
        state.withLock { $0.registrationsInProgress += 1 }
        defer {
            state.withLock { $0.registrationsInProgress -= 1 }
            registered.fire()
        }
        return body()
    }

    /// Returns once no `transferUserInfo` call is registering its object (or when cancelled): a transfer
    /// can finish before its call has registered the object, and `didFinish` must get that object.
    func waitForRegistrations() async {
        while !Task.isCancelled {
            let seen = registered.generation
            if state.withLock({ $0.registrationsInProgress }) == 0 { return }
            await registered.wait(after: seen)
        }
    }

    /// The app's object for a stored transfer: the one it already holds, or a new one (remembered while
    /// `isTransferring`). Its `cancel()` cancels through `engine`, blocking on the host's executor.
    func object(for stored: OutboxTransfer, engine: PairEngine, isTransferring: Bool) -> WCSessionUserInfoTransfer {
        state.withLock { state in
            if let existing = state.registry.object(for: stored.transferId) { return existing }
            let transfer = WCSessionUserInfoTransfer(
                transferId: stored.transferId, payload: .plist(stored.payload), isTransferring: isTransferring,
                canceller: { [weak self] id in
                    _ = EngineExecutor.shared.blockingCall { (try? await engine.cancelUserInfo(id)) ?? false }
                    self?.remove(id)
                }
            )
            if isTransferring { state.registry.insert(transfer, for: stored.transferId) }
            return transfer
        }
    }

    /// Forgets `id` (finished or cancelled).
    func remove(_ id: UUID) {
        _ = state.withLock { $0.registry.remove(id) }
    }
}
