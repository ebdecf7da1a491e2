import Glibc
import Logging
import Synchronization
import Systemd
import WatchPairCore
import WatchPairTransport
import WatchPairWire

/// The peer-link listener of a host: the socket systemd passed under `listenFDName` (adopted), else
/// `paths.link` bound by the host itself (mode 0600, listening before its name appears).
public struct LinkListener: Sendable {
    /// The listening descriptor the transport adopts.
    public let descriptor: Int32
    /// Whether systemd passed it (socket activation).
    public let adopted: Bool
    /// Set when bound here: unlinked and closed by ``release()``.
    let owned: ListeningSocket?

    /// Adopts the systemd socket named `configuration.listenFDName` from `passed` (nil: what systemd
    /// passed this process, see ``passedBySystemd()``), else binds `configuration.linkPath` (`paths.link`).
    /// - Throws: ``HostError`` `.systemd` for a malformed `LISTEN_FDS`, `.listen` when binding fails.
    public static func open(_ configuration: HostConfiguration, passed: ListenFileDescriptors?, logger: Logger) throws(HostError) -> LinkListener {
        let fds: ListenFileDescriptors
        if let passed {
            fds = passed
        } else {
            do {
                fds = try passedBySystemd()
            } catch {
                throw HostError(.systemd, "reading the sockets passed by systemd failed: \(error)")
            }
        }
        if let fd = fds.fd(named: configuration.listenFDName) {
            logger.info("adopted the link listener from systemd", metadata: ["fd": "\(fd)", "name": "\(configuration.listenFDName)"])
            return LinkListener(descriptor: fd, adopted: true, owned: nil)
        }
        if !fds.isEmpty {
            logger.warning(
                "systemd passed sockets but none named listenFDName; binding the link socket instead",
                metadata: ["listenFDName": "\(configuration.listenFDName)", "passed": "\(fds.all.map(\.name))"])
        }
        let socket = try ListeningSocket.bindOwned(configuration.linkPath, logger: logger)
        return LinkListener(descriptor: socket.descriptor, adopted: false, owned: socket)
    }

    /// The launch mode: as configured unless `auto`; then background iff systemd's listener already
    /// has a connection waiting (a peer started us), else foreground.
    public func launchMode(_ setting: HostConfiguration.LaunchSetting) -> LaunchMode {
        switch setting {
        case .foreground: .foreground
        case .background: .background
        case .auto: adopted && hasPendingConnection(listeningFD: descriptor) ? .background : .foreground
        }
    }

    /// Unlinks and closes a self-bound socket; an adopted one stays open (systemd owns it, and a later
    /// activation in the same process adopts it again).
    public func release() {
        guard let owned else { return }
        owned.removeOwnedFile()
        _ = Glibc.close(owned.descriptor)
    }

    private static let passedFDs = Mutex<Result<ListenFileDescriptors, SystemdError>?>(nil)

    /// What systemd passed this process (`LISTEN_FDS`), read once: libsystemd unsets the variables,
    /// so every later call (a `WCSession` activated again) gets the same answer.
    public static func passedBySystemd() throws(SystemdError) -> ListenFileDescriptors {
        let result = passedFDs.withLock { cached in
            if let cached { return cached }
            let read = Result { () throws(SystemdError) in try ListenFileDescriptors.fromEnvironment() }
            cached = read
            return read
        }
        return try result.get()
    }
}
