import Foundation
import WatchConnection

extension KeyedSync {
    /// Applies `event` to a copy of the ledger, writes it, then makes it current and acts on it: a change
    /// that cannot be written is not made (the caller is told), so nothing reported is lost.
    ///
    /// Returns the snapshot to send; with `pushing`, it is sent from a task of its own instead.
    @discardableResult
    func commit(_ event: SyncLedger.Event, pushing: Bool = true) throws(KeyedSyncError) -> [SyncEntry]? {
        var next = ledger
        let action = next.event(event)
        if action.persist { try file?.save(next) }
        ledger = next
        for note in action.notes { emit(KeyedSyncEvent(note)) }
        for entry in action.applied {
            for continuation in updateSubscribers[entry.key]?.values ?? [:].values { continuation.yield(entry.value) }
        }
        guard let snapshot = action.send else { return nil }
        if pushing { spawn { await self.push(snapshot) } }
        return snapshot
    }

    /// Sends `snapshot` as the application context and waits for the peer's confirmation, which marks
    /// the revisions it holds as synced.
    func push(_ snapshot: [SyncEntry]) async {
        pushGeneration += 1
        let generation = pushGeneration
        do {
            _ = try await connection.send(
                SyncPush(entries: snapshot), strategy: .contextOnly, delivery: .immediate,
                retryPolicy: RetryPolicy(maxAttempts: 1, timeout: configuration.confirmationTimeout))
            try commit(.confirmed(snapshot, at: wallNow))
            if generation == pushGeneration { retry(.confirmed) }
        } catch let error as KeyedSyncError {
            emit(.storageFailed(reason: error.description))
        } catch {
            // A newer snapshot replaced this one's context before the peer read it: only the newest counts.
            guard generation == pushGeneration else { return }
            emit(.unconfirmed(reason: "\(error)"))
            retry(.unconfirmed)
        }
    }

    /// Acts on ``PushRetry``'s decision: arms or disarms the timer, or pushes what still needs a sync.
    func retry(_ event: PushRetry.Event) {
        switch pushRetry.event(event) {
        case .none:
            break
        case .schedule(let delay):
            retryTimer?.cancel()
            let sleep = self.sleep
            retryTimer = Task { [weak self] in
                do { try await sleep(delay) } catch { return }
                self?.retry(.timerFired)
            }
        case .cancel:
            retryTimer?.cancel()
            retryTimer = nil
        case .push:
            spawn { await self.syncRegisteredKeysIfNeeded() }
        }
    }

    /// The peer's snapshot arrived (its push, or the answer to the handshake).
    func received(_ entries: [SyncEntry]) throws(KeyedSyncError) {
        try commit(.received(entries, at: wallNow))
    }

    /// The phone's answer to the watch's handshake: its snapshot, also pushed as its context so that it
    /// arrives even if the watch no longer waits for this answer.
    func answerSnapshotRequest() throws(KeyedSyncError) -> SyncPush {
        emit(.requested(by: side.peer))
        let snapshot = try commit(.syncRequested(.snapshot))
        return SyncPush(entries: snapshot ?? [])
    }

    func registerHandlers() {
        connection.register(SyncPush.self) { [weak self] push in
            // Thrown (not written): the peer's push stays unconfirmed and is sent again.
            try await self?.received(push.entries)
            return VoidResponse()
        }
        guard side == .phone else { return }
        connection.register(SyncSnapshotRequest.self) { [weak self] _ in
            try await self?.answerSnapshotRequest() ?? SyncPush(entries: [])
        }
    }

    /// The handshake and the retries of `needSync` keys follow the connection: at activation and each
    /// time the peer becomes reachable (and on the phone, when the watch app's installation changes).
    /// The watch asks only once it has registered a key: an app that syncs nothing (a daemon nobody has
    /// given a key yet) adds no traffic.
    func statusChanged(from previous: ConnectionStatus?, to status: ConnectionStatus) {
        if status.isReachable != previous?.isReachable { retry(.reachability(status.isReachable)) }
        let activated = status.isActivated && previous?.isActivated != true
        let reachable = status.isReachable && previous?.isReachable != true
        let watchState = side == .phone && previous != nil && previous?.isCounterpartAppInstalled != status.isCounterpartAppInstalled
        guard status.isActivated, activated || reachable || watchState else { return }
        let asks = side == .watch && ledger.records.values.contains { $0.options != nil }
        spawn {
            if asks { await self.requestSnapshot() }
            await self.syncRegisteredKeysIfNeeded()
        }
    }
}
