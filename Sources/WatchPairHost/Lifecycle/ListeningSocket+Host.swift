import Glibc
import Logging
import WatchPairTransport

extension ListeningSocket {
    /// Binds one of the daemon's own sockets (mode 0600 unless `mode` says otherwise), as a `HostError`
    /// naming the path on failure.
    static func bindOwned(_ path: String, mode: mode_t = 0o600, logger: Logger) throws(HostError) -> ListeningSocket {
        do {
            return try bind(path: path, mode: mode, logger: logger)
        } catch {
            throw HostError(.listen, "cannot bind \(path): \(error)")
        }
    }
}
