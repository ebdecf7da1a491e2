import Logging
import WatchPairTransport

extension ListeningSocket {
    /// Binds one of the daemon's own sockets (mode 0600), as a `DaemonError` naming the path on failure.
    static func bindOwned(_ path: String, logger: Logger) throws(DaemonError) -> ListeningSocket {
        do {
            return try bind(path: path, mode: 0o600, logger: logger)
        } catch {
            throw DaemonError(.listen, "cannot bind \(path): \(error)")
        }
    }
}
