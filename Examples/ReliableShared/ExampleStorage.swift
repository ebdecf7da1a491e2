import Foundation
import WatchConnection

/// Where each example app keeps the layer's files (its request queue, its recorded responses).
public enum ExampleStorage {
    /// A configuration persisted next to the app's WatchConnectivity store: `$WATCHPAIR_STATE_DIR`, else
    /// the state directory of `daemon` (`phoned` or `watchd`), as under systemd's `StateDirectory=`.
    public static func configuration(daemon: String) -> WatchConnectionConfiguration {
        let environment = ProcessInfo.processInfo.environment
        let directory = environment["WATCHPAIR_STATE_DIR"] ?? environment["WATCHPAIR_PATHS_STATE"] ?? "/var/lib/watchpair/\(daemon)"
        // The session creates it too; if neither can, every save of the queue fails and the layer
        // reports it (`queueStorageFailed` to the sender): no need for a second error path here.
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return WatchConnectionConfiguration(storageDirectory: URL(fileURLWithPath: directory))
    }
}
