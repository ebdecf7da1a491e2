extension WatchConnection {
    /// Stops the connection for good and returns once none of its tasks is running.
    ///
    /// Every pending send ends with `.cancelled` (a queued request stays in the persisted queue, as after
    /// a kill, and is flushed by the next connection over the same directory); `waitForActivation` and
    /// `waitForConnection` callers get `.cancelled`; session events are no longer read; running handlers
    /// are cancelled and their responses recorded; then `connectionState`, `diagnosticEvents` and
    /// `recoverySuggestions` end. Later sends fail with `.cancelled` at once.
    ///
    /// An app on a watch never calls it (its connection lives as long as the app); a host that owns the
    /// connection's lifetime does, at shutdown, so nothing of the connection outlives the host.
    public func close() async {
        if !tasks.isClosed {
            tasks.cancelAll()
            receiver.stop()
            for id in Array(pending.keys) { finish(id, .failure(.cancelled)) }
            statusWaiters.cancelAll()
            sessionEvents.finish()
            barriers.releaseAll()
        }
        await tasks.waitForAll()
        statusBroadcast.finish()
        eventBroadcast.finish()
        recordBroadcast.finish()
        suggestionBroadcast.finish()
    }

    /// Returns once every session event reported before the call has been handled: a request that came
    /// by userInfo or context has then been answered from its record, or is held or running, and (with a
    /// `storageDirectory`) is on disk. A host that acknowledges durable items to its transport itself
    /// (the daemons) waits for this first, so a kill -9 cannot lose a request between the two. Returns
    /// at once after `close()`.
    public func waitUntilSessionEventsHandled() async {
        guard !tasks.isClosed else { return }
        await barriers.wait(in: sessionEvents)
    }

    /// How many of the connection's tasks are running: 0 once `close()` returned.
    public var runningTaskCount: Int { tasks.count }
}
