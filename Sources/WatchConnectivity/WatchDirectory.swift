import Foundation
import Logging

/// The phone's `watchDirectoryURL`: a directory per paired watch, `<stateDirectory>/WatchDirectory/<pairId>`,
/// that exists while the watch app is installed and is removed with its contents when it is uninstalled.
struct WatchDirectory {
    /// The directory.
    let url: URL

    init(configuration: WCSessionConfiguration) {
        url = URL(fileURLWithPath: configuration.stateDirectory, isDirectory: true)
            .appendingPathComponent("WatchDirectory", isDirectory: true)
            .appendingPathComponent(configuration.pairId, isDirectory: true)
    }

    /// Creates the directory while the watch app is `installed`, removes it when it is not; a failure is
    /// logged (the app sees `watchDirectoryURL` either way, as on Apple's devices where it may be absent).
    func follow(installed: Bool, logger: Logger) {
        do {
            if installed {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } else if FileManager.default.fileExists(atPath: url.path) {
                try FileManager.default.removeItem(at: url)
            }
        } catch {
            logger.warning("watch directory not updated", metadata: ["path": "\(url.path)", "error": "\(error)"])
        }
    }
}
