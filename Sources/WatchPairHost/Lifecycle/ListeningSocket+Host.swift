import Logging
import WatchPairTransport

extension ListeningSocket {
    /// Binds one of the daemon's own sockets (mode 0600), as a `HostError` naming the path on failure.
    static func bindOwned(_ path: String, logger: Logger) throws(HostError) -> ListeningSocket {
        do {
            return try bind(path: path, mode: 0o600, logger: logger)
        } catch {
            throw HostError(.listen, "cannot bind \(path): \(error)")
        }
    }
}
