import Foundation
import ServiceLifecycle
import Synchronization
import Testing
import WatchPairCore
import WatchPairTransport

@testable import WatchPairHost

/// The event sink writes on the socket loop, behind the writes of the tick that emitted the events, in
/// order, the history file before the log; graceful shutdown writes the last events and closes the file.
@Suite("Event sink")
struct EventSinkTests {
    static func event(_ n: Int) -> DiagnosticEvent {
        DiagnosticEvent(.userInfoDelivered, role: .watch, "userInfo \(n) received", channel: .userInfo, seq: UInt64(n))
    }

    /// A sink on `loop` whose writer reports each event's seq (and what the log and history held then).
    final class Recorder: Sendable {
        let lines: AsyncStream<String>
        let continuation: AsyncStream<String>.Continuation
        init() { (lines, continuation) = AsyncStream.makeStream() }
        func next(_ count: Int) async -> [String] {
            var out: [String] = []
            for await line in lines {
                out.append(line)
                if out.count == count { break }
            }
            return out
        }
    }

    @Test func eventsEmittedOnTheLoopAreWrittenOncePerTickBehindTheTicksWrites() async throws {
        let hub = DiagnosticsHub()
        let batches = hub.subscribeInBatches()
        let recorder = Recorder()
        let writer = EventWriter { _ in } writeBatch: { batch in
            recorder.continuation.yield("batch " + batch.map { "\($0.seq ?? 0)" }.joined(separator: ","))
        }
        let loop = SocketEventLoop.next()
        let sink = EventSink(events: batches, log: EventLog(), writer: writer, history: nil, loop: loop)
        let group = ServiceGroup(services: [sink], logger: quietLogger)
        let running = Task { try await group.run() }
        // One tick: an event, then a reply's write (its flush queued on the loop as a connection's is), another event.
        loop.execute {
            hub.emit(Self.event(1))
            loop.execute { recorder.continuation.yield("tick's write") }
            hub.emit(Self.event(2))
        }
        #expect(await recorder.next(2) == ["tick's write", "batch 1,2"])
        await group.triggerGracefulShutdown()
        try await running.value
    }

    @Test func gracefulShutdownWritesTheLastEventsHistoryFirstAndClosesTheFile() async throws {
        let dir = try TemporaryDirectory()
        let (history, _) = EventHistory.open(directory: dir.path, logger: quietLogger)
        let hub = DiagnosticsHub()
        let batches = hub.subscribeInBatches()
        let log = EventLog()
        let path = dir.path + "/" + EventHistory.currentFileName
        // What the history file and the log held when the writer got each batch.
        let seen = Mutex<[(fileLines: Int, logged: Int, batch: Int)]>([])
        let writer = EventWriter { _ in } writeBatch: { batch in
            let lines = (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n").count ?? 0
            seen.withLock { $0.append((lines, log.recent.count, batch.count)) }
        }
        // Emitted before the sink runs (the launch event) and off the loop.
        hub.emit(Self.event(1))
        let sink = EventSink(events: batches, log: log, writer: writer, history: history, loop: SocketEventLoop.next())
        let group = ServiceGroup(services: [sink], logger: quietLogger)
        let running = Task { try await group.run() }
        hub.emit(Self.event(2))
        await group.triggerGracefulShutdown()
        try await running.value
        // Every event written, and each batch was in the file and the log before the writer had it.
        #expect(log.recent.map(\.seq) == [1, 2])
        let total = seen.withLock { $0.reduce(0) { $0 + $1.batch } }
        #expect(total == 2)
        for entry in seen.withLock({ $0 }) { #expect(entry.fileLines == entry.logged) }
        // Closed: later events are not kept.
        hub.emit(Self.event(3))
        sink.flush()
        #expect(log.recent.map(\.seq) == [1, 2])
        let (reopened, events) = EventHistory.open(directory: dir.path, logger: quietLogger)
        reopened?.close()
        #expect(events.map(\.seq) == [1, 2])
    }
}
