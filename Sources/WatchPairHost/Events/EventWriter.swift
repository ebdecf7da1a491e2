import Glibc
import Systemd
import WatchPairCore
import WatchPairWire

/// Where the event sink writes each diagnostic event: journald, stderr, or (in tests) anywhere.
public struct EventWriter: Sendable {
    /// Writes one event; must not block for long (it runs on the sink's task, in event order).
    public var write: @Sendable (DiagnosticEvent) -> Void

    /// A writer calling `write` for each event.
    public init(write: @escaping @Sendable (DiagnosticEvent) -> Void) {
        self.write = write
    }

    /// The daemons' writer for `destination` (docs/Systemd.md, "journald").
    ///
    /// - `.journal`: one journal entry per event (``DiagnosticEvent`` fields as `MESSAGE`, `MESSAGE_ID`,
    ///   `PRIORITY`, `SYSLOG_IDENTIFIER`, `WC_*`, with `WC_PAIR=pair`); an event the journal does not take (no journal socket,
    ///   send failed) becomes a stderr line instead.
    /// - `.stderr`: one line per event, `<identifier>[<pid>]: <event> <message> key=value…`.
    /// - `.auto`: `.journal` when the journal socket exists now, else `.stderr`.
    public static func standard(
        destination: HostConfiguration.LogDestination, identifier: String, pair: String = PairName.defaultPairName,
        pid: Int32 = getpid()
    ) -> EventWriter {
        let useJournal = switch destination {
        case .auto: Journal.isAvailable
        case .journal: true
        case .stderr: false
        }
        return EventWriter { event in
            if useJournal, Journal.send(event.journalFields(identifier: identifier, pair: pair)) { return }
            writeLine(event.stderrLine(identifier: identifier, pid: pid))
        }
    }

    /// Drops every event (tests that read events from the control socket instead).
    public static let discard = EventWriter { _ in }

    /// One `write(2)` per line so concurrent writers never interleave within a line; if stderr is gone
    /// there is nowhere left to report it.
    private static func writeLine(_ line: String) {
        _ = writeAll(STDERR_FILENO, Array((line + "\n").utf8))
    }
}
