import Systemd

/// How the daemon talks to systemd's notification socket: the real `ServiceNotifier`, or a recorder in tests.
public struct SystemdNotifications: Sendable {
    /// One notification.
    public enum Notification: Sendable, Hashable {
        /// `READY=1` with `STATUS=`: start-up is complete.
        case ready(status: String)
        /// `STATUS=`: the one line `systemctl status` shows.
        case status(String)
        /// `WATCHDOG=1`: the daemon is alive.
        case watchdog
        /// `STOPPING=1`: shutdown has begun.
        case stopping
    }

    /// Whether notifications go anywhere (false outside systemd: every notification is skipped).
    public var isEnabled: Bool
    /// The watchdog interval systemd expects pings within, if the watchdog is on.
    public var watchdogInterval: Duration?
    /// Sends one notification.
    public var send: @Sendable (Notification) -> Void

    /// Notifications handed to `send`.
    public init(isEnabled: Bool = true, watchdogInterval: Duration? = nil, send: @escaping @Sendable (Notification) -> Void) {
        self.isEnabled = isEnabled
        self.watchdogInterval = watchdogInterval
        self.send = send
    }

    /// The real thing: `sd_notify` through `notifier` (which read `NOTIFY_SOCKET`; `WATCHDOG_USEC` is read now).
    public static func systemd(_ notifier: ServiceNotifier = ServiceNotifier()) -> SystemdNotifications {
        SystemdNotifications(isEnabled: notifier.isEnabled, watchdogInterval: notifier.watchdogInterval) { notification in
            switch notification {
            case .ready(let status): notifier.ready(status: status)
            case .status(let line): notifier.status(line)
            case .watchdog: notifier.watchdog()
            case .stopping: notifier.stopping()
            }
        }
    }
}
