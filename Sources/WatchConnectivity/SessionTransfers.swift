import Foundation
import Synchronization
import WatchPairCore
import WatchPairHost

/// The session's transfer objects (`WCSessionUserInfoTransfer`, `WCSessionFileTransfer`, each kind in a
/// `TransferRegistry`) and the `transferUserInfo`/`transferFile` calls still registering theirs, so the
/// object a call returns is the one later passed to `didFinish`.
///
/// Lives as long as the session, across activations.
final class SessionTransfers: Sendable {
    private struct State {
        var registry = TransferRegistry<WCSessionUserInfoTransfer>()
        var files = TransferRegistry<WCSessionFileTransfer>()
        /// `transferUserInfo`/`transferFile` calls whose transfer object is not registered yet.
        var registrationsInProgress = 0
    }

    private let state = Mutex(State())
    /// Fires when a `transferUserInfo`/`transferFile` call has registered its transfer object.
    private let registered = AsyncSignal()

    /// Runs a `transferUserInfo`/`transferFile` call's `body`, during which `waitForRegistrations()` waits.
    func registering<T>(_ body: () -> T) -> T {
        state.withLock { $0.registrationsInProgress += 1 }
        defer {
            state.withLock { $0.registrationsInProgress -= 1 }
            registered.fire()
        }
        return body()
    }

    /// Returns once no `transferUserInfo`/`transferFile` call is registering its object (or when cancelled): a transfer
    /// can finish before its call has registered the object, and `didFinish` must get that object.
    func waitForRegistrations() async {
        while !Task.isCancelled {
            let seen = registered.generation
            if state.withLock({ $0.registrationsInProgress }) == 0 { return }
            await registered.wait(after: seen)
        }
    }

    /// The app's object for a stored transfer: the one it already holds, or a new one (remembered while
    /// `isTransferring`). Its `cancel()` cancels through `channels`, blocking on the host's executor.
    func object(for stored: OutboxTransfer, channels: AppChannels, isTransferring: Bool) -> WCSessionUserInfoTransfer {
        state.withLock { state in
            if let existing = state.registry.object(for: stored.transferId) { return existing }
            let transfer = WCSessionUserInfoTransfer(
                transferId: stored.transferId, payload: .plist(stored.payload), isTransferring: isTransferring,
                isCurrentComplicationInfo: stored.isCurrentComplicationInfo,
                canceller: { [weak self] id in
                    _ = EngineExecutor.shared.blockingCall { (try? await channels.cancelUserInfo(id)) ?? false }
                    self?.remove(id)
                }
            )
            if isTransferring { state.registry.insert(transfer, for: stored.transferId) }
            return transfer
        }
    }

    /// The app's object for a stored file transfer: the one it already holds, or a new one (remembered
    /// while `isTransferring`) whose file is `url`, or the store's copy when nil. Its `cancel()` cancels
    /// through `channels`, blocking on the host's executor.
    func object(for stored: OutgoingFile, url: URL? = nil, channels: AppChannels, isTransferring: Bool) -> WCSessionFileTransfer {
        state.withLock { state in
            if let existing = state.files.object(for: stored.transferId) { return existing }
            let file = WCSessionFile(fileURL: url ?? URL(fileURLWithPath: stored.spoolPath), metadata: stored.metadata?.dictionary)
            let transfer = WCSessionFileTransfer(
                transferId: stored.transferId, file: file, size: stored.size, isTransferring: isTransferring,
                canceller: { [weak self] id in
                    _ = EngineExecutor.shared.blockingCall { (try? await channels.cancelFileTransfer(id)) ?? false }
                    self?.remove(id)
                }
            )
            if isTransferring { state.files.insert(transfer, for: stored.transferId) }
            return transfer
        }
    }

    /// The live file transfer object for `id`, if the app holds one.
    func fileObject(for id: UUID) -> WCSessionFileTransfer? {
        state.withLock { $0.files.object(for: id) }
    }

    /// Forgets `id` (finished or cancelled), of either kind.
    func remove(_ id: UUID) {
        state.withLock { state in
            state.registry.remove(id)
            state.files.remove(id)
        }
    }
}
