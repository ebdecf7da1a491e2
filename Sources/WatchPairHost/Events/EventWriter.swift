import Glibc
import Systemd
import WatchPairCore
import WatchPairWire

/// Where the event sink writes each diagnostic event: journald, stderr, or (in tests) anywhere.
public struct EventWriter: Sendable {
    /// Writes one event; must not block (it runs on the sink's task, on the socket loop's thread in the
    /// daemons), in event order.
    public var write: @Sendable (DiagnosticEvent) -> Void
    /// Writes the events the engine emitted since the sink last ran (one loop tick's, under load), in order.
    public var writeBatch: @Sendable ([DiagnosticEvent]) -> Void
    /// Waits until what the writer handed to a thread of its own is written (graceful shutdown).
    public var drain: @Sendable () -> Void
    /// Writes dropped so far because journald or stderr's reader was behind (`status.eventLinesDropped`).
    public var dropped: @Sendable () -> Int = { 0 }

    /// A writer calling `write` for each event.
    public init(write: @escaping @Sendable (DiagnosticEvent) -> Void) {
        self.write = write
        self.writeBatch = { events in for event in events { write(event) } }
        self.drain = {}
    }

    /// A writer with a way of its own to write a batch (stderr: one `write(2)` for many lines).
    public init(
        write: @escaping @Sendable (DiagnosticEvent) -> Void, writeBatch: @escaping @Sendable ([DiagnosticEvent]) -> Void,
        drain: @escaping @Sendable () -> Void = {}
    ) {
        self.write = write
        self.writeBatch = writeBatch
        self.drain = drain
    }

    /// The daemons' writer for `destination` (docs/Systemd.md, "journald").
    ///
    /// - `.journal`: one journal entry per event (``DiagnosticEvent`` fields as `MESSAGE`, `MESSAGE_ID`,
    ///   `PRIORITY`, `SYSLOG_IDENTIFIER`, `WC_*`, with `WC_PAIR=pair`); an event the journal does not take (no journal socket,
    ///   send failed) becomes a stderr line instead.
    /// - `.stderr`: one line per event, `<identifier>[<pid>]: <event> <message> key=value…`.
    /// - `.auto`: `.journal` when the journal socket exists now, else `.stderr`.
    ///
    /// It never waits (the sink runs on the socket loop's thread in the daemons): what the journal's socket
    /// or stderr's reader cannot take at once goes to `output`'s thread (``LoopOutput``).
    static func standard(
        destination: HostConfiguration.LogDestination, identifier: String, pair: String = PairName.defaultPairName,
        pid: Int32 = getpid(), output: LoopOutput? = nil,
        stderr: NoWaitWrite = NoWaitWrite(descriptor: STDERR_FILENO), journalPath: String = Journal.socketPath
    ) -> EventWriter {
        // Written waiting, on the output's thread once it caught up: the journal shows that lines are missing.
        let output = output ?? LoopOutput { dropped in
            let notice = "\(identifier)[\(pid)]: \(dropped) event lines dropped while stderr or journald was behind; "
                + "they are in the event history (wcctl events)\n"
            _ = writeAll(stderr.descriptor, Array(notice.utf8))
        }
        let useJournal = switch destination {
        case .auto: Journal.isAvailable
        case .journal: true
        case .stderr: false
        }
        let prefix = DiagnosticEvent.stderrPrefix(identifier: identifier, pid: pid)
        // journald takes one entry per call; stderr lines go out together, a batch in as few writes as fit,
        // each line written in place into the chunk it goes out in.
        let writeBatch: @Sendable ([DiagnosticEvent]) -> Void = { events in
            var lines = LineChunks(limit: batchBytes)
            // One datagram buffer for the batch's entries, as the lines have one chunk.
            var datagram = JournalDatagram()
            for event in events {
                // No check that the journal's socket exists: a send to a missing one fails, and the
                // entry becomes a stderr line then (`.failed`), without a `stat` per event on the loop.
                guard useJournal else {
                    lines.appendLine { event.appendStderrLine(to: &$0, after: prefix) }
                    continue
                }
                // Sent waiting, on the output's thread: when the socket was full, or entries wait there already.
                let send: @Sendable () -> Void = {
                    guard !Journal.send(event.journalFields(identifier: identifier, pair: pair)) else { return }
                    var line: [UInt8] = []
                    event.appendStderrLine(to: &line, after: prefix)
                    line.append(UInt8(ascii: "\n"))
                    _ = writeAll(stderr.descriptor, line)
                }
                output.write(attempt: {
                    datagram.removeAll()
                    event.appendJournalEntry(to: &datagram, identifier: identifier, pair: pair)
                    switch Journal.trySend(datagram, to: journalPath) {
                    case .sent: return nil
                    case .wouldWait: return send
                    case .failed:
                        lines.appendLine { event.appendStderrLine(to: &$0, after: prefix) }
                        return nil
                    }
                }, whole: send)
            }
            for chunk in lines.finish() { stderr.write(chunk, through: output) }
        }
        var writer = EventWriter(write: { writeBatch([$0]) }, writeBatch: writeBatch, drain: output.drain)
        writer.dropped = { output.dropped }
        return writer
    }

    /// Drops every event (tests that read events from the control socket instead).
    public static let discard = EventWriter { _ in }

    /// Most bytes of lines written with one `write(2)`: within `PIPE_BUF`, so that on the pipe systemd
    /// gives a service as stderr, another thread's log line never lands inside one of these.
    static let batchBytes = 4096
}
