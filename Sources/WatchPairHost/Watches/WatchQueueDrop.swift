import Foundation
import Logging
import WatchPairCore

/// Unpairing a watch: what the phone queued for it goes (docs/Watches.md), the one place WatchPair drops
/// content, as Apple's devices do.
public enum WatchQueueDrop {
    /// Counts what the phone's state directory for one watch holds for it (its store, closed: the
    /// watch's engine must not be running), then removes the directory with its watch directory.
    /// Returns what was dropped; a directory that does not exist dropped nothing.
    /// - Parameter configuration: The phone's configuration bound to the watch (``HostConfiguration/forWatch(_:)``).
    /// - Throws: `StoreError` when the store cannot be read, an I/O error when the directory cannot be removed.
    public static func drop(_ configuration: HostConfiguration, logger: Logger) async throws -> QueuedCounts {
        let directory = configuration.store.directory
        guard FileManager.default.fileExists(atPath: directory) else { return QueuedCounts() }
        let store = try await PairStore.open(configuration.store, logger: logger)
        let counts: QueuedCounts
        do {
            counts = try await store.queuedCounts()
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
        try FileManager.default.removeItem(atPath: directory)
        return counts
    }
}
