#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether a connection is waiting to be accepted on `listeningFD` (non-blocking `poll` for `POLLIN`).
///
/// Used for launch-mode detection: systemd starts the service of an `Accept=no` socket unit when a
/// connection arrives on it, so a connection already pending at start-up means the service was
/// launched in the background by a peer; none pending means a user started it (foreground). The check
/// does not accept or otherwise consume the connection. Returns `false` when `poll` fails or reports
/// only an error condition on the fd.
public func hasPendingConnection(listeningFD: Int32) -> Bool {
    var pollFD = pollfd(fd: listeningFD, events: Int16(POLLIN), revents: 0)
    while true {
        let result = poll(&pollFD, 1, 0)
        if result < 0 && errno == EINTR { continue }
        return result > 0 && (pollFD.revents & Int16(POLLIN)) != 0
    }
}
