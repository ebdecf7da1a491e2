extension PairStore {
    /// What this store holds for its peer, unacknowledged (``QueuedCounts``).
    public func queuedCounts() async throws(StoreError) -> QueuedCounts {
        let sent = try await contexts.sentContext()?.version ?? 0
        let acknowledged = try await contexts.peerContextAck()
        return QueuedCounts(
            userInfo: try await outstandingCount(), files: files.outstandingFileCount, context: sent > acknowledged ? 1 : 0)
    }
}
