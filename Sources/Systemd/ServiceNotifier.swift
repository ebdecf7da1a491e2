import CSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Tells systemd about the service's state through `sd_notify` (`Type=notify` units, watchdog).
///
/// Outside systemd (`NOTIFY_SOCKET` unset when the notifier was created) every call is a silent no-op.
/// Sending is synchronous (one datagram) and never throws: a failed notification is not worth failing
/// the service for; ``notify(_:)`` reports it for callers that care.
public struct ServiceNotifier: Sendable {
    /// Whether `NOTIFY_SOCKET` was set when this notifier was created.
    public let isEnabled: Bool

    /// Creates a notifier, reading `NOTIFY_SOCKET` once (it is left set for later reads).
    public init() {
        self.isEnabled = getenv("NOTIFY_SOCKET") != nil
    }

    /// Sends `READY=1`, with `STATUS=` when `status` is given: start-up is complete.
    public func ready(status: String? = nil) {
        var state = "READY=1"
        if let status {
            state += "\nSTATUS=\(Self.singleLine(status))"
        }
        self.notify(state)
    }

    /// Sends `STATUS=line`, the free-form text `systemctl status` shows. Newlines become spaces.
    public func status(_ line: String) {
        self.notify("STATUS=\(Self.singleLine(line))")
    }

    /// Sends `STOPPING=1`: a graceful shutdown has begun.
    public func stopping() {
        self.notify("STOPPING=1")
    }

    /// Sends `WATCHDOG=1`: a keep-alive ping, due within ``watchdogInterval``.
    public func watchdog() {
        self.notify("WATCHDOG=1")
    }

    /// Sends `MAINPID=pid`: the service's main process is `pid`.
    public func mainPID(_ pid: Int32) {
        self.notify("MAINPID=\(pid)")
    }

    /// The interval systemd expects ``watchdog()`` pings within (`WATCHDOG_USEC`, checked against
    /// `WATCHDOG_PID` by `sd_watchdog_enabled(0, …)`); `nil` when the watchdog is disabled or the
    /// variables are malformed. Ping at half this interval, as systemd recommends.
    public var watchdogInterval: Duration? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return .microseconds(Int64(clamping: usec))
    }

    /// Sends raw newline-separated `KEY=value` assignments with `sd_notify(0, state)`.
    /// - Returns: `true` when the datagram was sent; `false` when disabled or sending failed.
    @discardableResult
    public func notify(_ state: String) -> Bool {
        guard self.isEnabled else { return false }
        return sd_notify(0, state) > 0
    }

    /// A notification assignment ends at a newline, so a value must not contain one.
    static func singleLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
