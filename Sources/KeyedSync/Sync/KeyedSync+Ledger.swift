import Foundation
import WatchConnection

extension KeyedSync {
    /// Applies `event` to a copy of the ledger, writes it, then makes it current and acts on it: a change
    /// that cannot be written is not made (the caller is told), so nothing reported is lost.
    ///
    /// Returns the ledger's action; with `pushing`, its snapshot is sent from a task of its own.
    @discardableResult
    func commit(_ event: SyncLedger.Event, pushing: Bool = true) throws(KeyedSyncError) -> SyncLedger.Action {
        var next = ledger
        let action = next.event(event)
        if action.persist { try file?.save(next) }
        ledger = next
        emit(action.notes.map(KeyedSyncEvent.init))
        for entry in action.applied {
            for continuation in updateSubscribers[entry.key]?.values ?? [:].values { continuation.yield(entry.value) }
        }
        if pushing, let snapshot = action.send { spawn { await self.push(snapshot) } }
        return action
    }

    /// Sends `snapshot` as the application context and waits for the peer's confirmation, which marks
    /// the revisions it holds as synced.
    func push(_ snapshot: [SyncEntry]) async {
        pushGeneration += 1
        let generation = pushGeneration
        // In flight since the ledger returned it; a newer push's snapshot stays in flight.
        defer { _ = ledger.event(.pushEnded(snapshot)) }
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
    /// arrives even if the watch no longer waits for this answer, unless the push in flight already
    /// carries it (its context is the watch's current one: pushing it again would deliver it twice).
    func answerSnapshotRequest() throws(KeyedSyncError) -> SyncPush {
        emit(.requested(by: side.peer))
        let action = try commit(.triggered(.snapshot))
        return SyncPush(entries: action.send ?? action.inFlight ?? [])
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
    ///
    /// A snapshot that the push in flight carries is not pushed again (``SyncLedger/Event/triggered(_:)``),
    /// unless the session deactivated or the watch app's installation changed since: then the peer may
    /// never get that push's context.
    func statusChanged(from previous: ConnectionStatus?, to status: ConnectionStatus) {
        if status.isReachable != previous?.isReachable { retry(.reachability(status.isReachable)) }
        let activated = status.isActivated && previous?.isActivated != true
        let reachable = status.isReachable && previous?.isReachable != true
        let watchState = side == .phone && previous != nil && previous?.isCounterpartAppInstalled != status.isCounterpartAppInstalled
        // What is in flight may not reach the watch: the session went away, or the watch app's
        // installation changed while activated (before activation the flag means nothing).
        if previous?.isActivated == true, !status.isActivated || watchState { _ = ledger.event(.pushEnded(nil)) }
        guard status.isActivated, activated || reachable || watchState else { return }
        let asks = side == .watch && ledger.records.values.contains { $0.options != nil }
        spawn {
            if asks { await self.requestSnapshot() }
            await self.request(.needing, triggered: true)
        }
    }
}
