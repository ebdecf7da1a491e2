import WatchPairCore

extension AppChannels {
    /// What this app holds for its peer, unacknowledged (`wcctl watches`' QUEUED for the bound watch).
    public func queuedCounts() async -> QueuedCounts {
        (try? await store.queuedCounts()) ?? QueuedCounts()
    }
}
