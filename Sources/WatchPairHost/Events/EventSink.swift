import ServiceLifecycle
import WatchPairCore

/// The service that takes every diagnostic event from the engine: records it in the ``EventLog`` (for
/// `wcctl events`) and the ``EventHistory`` (kept across restarts), and writes it with the
/// ``EventWriter`` (journald or stderr).
///
/// Events come in batches (everything emitted since the last one, ``DiagnosticBatches``), so the history
/// file takes one `write(2)` per batch: under load that is one per many events.
///
/// In the daemons this task runs on the socket loop's thread (NIO's loops are their executor, and the
/// engine emits there), so the writer must not wait for a reader (``EventWriter``, ``LoopOutput``).
///
/// It runs first in the service group, so it is shut down last: at graceful shutdown every other service
/// has stopped, and the events they emitted (`idleExit` included) are still written, because a cancelled
/// subscription hands out what it had buffered before it ends.
struct EventSink: Service {
    /// The engine's diagnostics subscription, made before anything was emitted.
    let events: DiagnosticBatches
    let log: EventLog
    let writer: EventWriter
    /// The history file; nil when it could not be opened.
    let history: EventHistory?

    func run() async {
        let events = self.events
        let log = self.log
        let writer = self.writer
        let history = self.history
        await cancelWhenGracefulShutdown {
            for await batch in events {
                // The file first: an event `wcctl events` has shown is already on disk, kill -9 or not.
                history?.append(contentsOf: batch)
                for event in batch { log.append(event) }
                writer.writeBatch(batch)
            }
        }
        // What the writer handed to its own thread (stderr's reader or journald behind) is written too.
        writer.drain()
        history?.close()
    }
}
