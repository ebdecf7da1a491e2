import Glibc
import Systemd
import WatchPairCore
import WatchPairWire

/// Where the event sink writes each diagnostic event: journald, stderr, or (in tests) anywhere.
public struct EventWriter: Sendable {
    /// Writes one event; must not block for long (it runs on the sink's task, in event order).
    public var write: @Sendable (DiagnosticEvent) -> Void
    /// Writes the events the engine emitted since the sink last ran (one loop tick's, under load), in order.
    public var writeBatch: @Sendable ([DiagnosticEvent]) -> Void

    /// A writer calling `write` for each event.
    public init(write: @escaping @Sendable (DiagnosticEvent) -> Void) {
        self.write = write
        self.writeBatch = { events in for event in events { write(event) } }
    }

    /// A writer with a way of its own to write a batch (stderr: one `write(2)` for many lines).
    public init(write: @escaping @Sendable (DiagnosticEvent) -> Void, writeBatch: @escaping @Sendable ([DiagnosticEvent]) -> Void) {
        self.write = write
        self.writeBatch = writeBatch
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
        // journald takes one entry per call; stderr lines go out together, a batch in as few writes as fit.
        let stderrLine: @Sendable (DiagnosticEvent) -> String? = { event in
            if useJournal, Journal.send(event.journalFields(identifier: identifier, pair: pair)) { return nil }
            return event.stderrLine(identifier: identifier, pid: pid)
        }
        return EventWriter { event in
            if let line = stderrLine(event) { writeLines([line]) }
        } writeBatch: { events in
            writeLines(events.compactMap(stderrLine))
        }
    }

    /// Drops every event (tests that read events from the control socket instead).
    public static let discard = EventWriter { _ in }

    /// Most bytes of lines written with one `write(2)`: within `PIPE_BUF`, so that on the pipe systemd
    /// gives a service as stderr, another thread's log line never lands inside one of these.
    static let batchBytes = 4096

    /// Writes `lines` with as few `write(2)` calls as ``chunks(_:limit:)`` makes; if stderr is gone there
    /// is nowhere left to report it.
    private static func writeLines(_ lines: [String]) {
        for chunk in chunks(lines, limit: batchBytes) { _ = writeAll(STDERR_FILENO, chunk) }
    }

    /// `lines`, each with its newline, packed in order into as few chunks of at most `limit` bytes as
    /// whole lines allow (a longer line is a chunk of its own). Pure.
    static func chunks(_ lines: [String], limit: Int) -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        var bytes: [UInt8] = []
        for line in lines {
            let next = Array((line + "\n").utf8)
            if !bytes.isEmpty, bytes.count + next.count > limit {
                chunks.append(bytes)
                bytes = []
            }
            bytes += next
        }
        if !bytes.isEmpty { chunks.append(bytes) }
        return chunks
    }
}
