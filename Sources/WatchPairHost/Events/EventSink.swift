import ServiceLifecycle
import Synchronization
import WatchPairCore
import WatchPairTransport

/// The service that takes every diagnostic event from the engine: records it in the ``EventHistory`` (kept
/// across restarts) and the ``EventLog`` (for `wcctl events`), and writes it with the ``EventWriter``
/// (journald or stderr).
///
/// The work is done on the host's socket loop at the end of the tick that emitted the events, behind the
/// writes that tick made (those of a reply go out first), as a job queued on the loop: no task is resumed
/// and, for events emitted on the loop (the engine's), no thread is woken. Events come in batches
/// (everything emitted since the last flush, ``DiagnosticBatches``), so the history file takes one
/// `write(2)` per tick, however many events the tick emitted. The writer must not block the loop
/// (``EventWriter``).
///
/// It runs first in the service group, so it is shut down last: at graceful shutdown every other service
/// has stopped, and the events they emitted (`idleExit` included) are still written by a last flush.
final class EventSink: Service, Sendable {
    /// The engine's diagnostics subscription, made before anything was emitted.
    private let events: DiagnosticBatches
    private let log: EventLog
    private let writer: EventWriter
    private let loop: SocketEventLoop
    /// The history file (nil when it could not be opened), and whether the sink has closed it: a flush
    /// holds this lock while it writes, so batches are written in the order they were taken.
    private let history: Mutex<(file: EventHistory?, closed: Bool)>

    init(events: DiagnosticBatches, log: EventLog, writer: EventWriter, history: EventHistory?, loop: SocketEventLoop) {
        self.events = events
        self.log = log
        self.writer = writer
        self.loop = loop
        self.history = Mutex((history, false))
    }

    func run() async {
        let loop = self.loop
        events.onArrival { [self] in
            // Twice through the queue: the first job runs where the tick's writes were queued (the
            // connection's flush is queued by the tick's first write), the second behind them.
            loop.execute { loop.execute { self.flush() } }
        }
        try? await gracefulShutdown()
        events.finish()
        flush()
        writer.drain()
        history.withLock { history in
            history.file?.close()
            history.closed = true
        }
    }

    /// Writes what waits: the history file first, so an event `wcctl events` has shown is already on
    /// disk, kill -9 or not; then the log and the writer.
    func flush() {
        history.withLock { history in
            guard !history.closed else { return }
            let batch = events.take()
            guard !batch.isEmpty else { return }
            history.file?.append(contentsOf: batch)
            for event in batch { log.append(event) }
            writer.writeBatch(batch)
        }
    }
}
