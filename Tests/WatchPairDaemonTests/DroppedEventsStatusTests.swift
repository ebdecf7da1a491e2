import Glibc
import Systemd
import Testing
import WatchPairCore
import WatchPairControlClient
import WatchPairWire

@testable import WatchPairDaemon
@testable import WatchPairHost

/// `status` tells what diagnostics were lost: the writer's dropped event lines (journald or stderr behind,
/// ``LoopOutput``) and the hub's dropped events, so a missing journal line is not a silent gap.
@Suite("status: dropped events")
struct DroppedEventsStatusTests {
    @Test func statusReportsTheWritersDroppedLinesAndTheHubsDroppedEvents() async throws {
        let directory = try TemporaryDirectory()
        let collector = EventCollector()
        var writer = collector.writer
        writer.dropped = { 3 }
        let daemon = try await buildDaemon(
            configuration: testConfiguration(.watch, in: directory.path), logger: quietLogger,
            environment: DaemonEnvironment(listenFileDescriptors: ListenFileDescriptors([]), eventWriter: writer))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await daemon.run(handlingSignals: false) }
            try await AsyncControlClientConnection.withConnection(to: daemon.configuration.paths.control) { app in
                let status = try await app.call(["id": 1, "op": "status"])
                #expect(status["result"]?["eventLinesDropped"]?.integerValue == 3)
                #expect(status["result"]?["diagnosticsDropped"]?.integerValue == Int64(daemon.engine.diagnostics.droppedEvents))
            }
            await daemon.shutdown()
            try await group.waitForAll()
        }
    }

    /// The daemons' own writer counts what its output thread dropped: events written to a pipe nobody
    /// reads, with room for one write to wait, lose lines, and the writer says how many.
    @Test func theStandardWriterCountsWhatItsOutputDropped() {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let output = LoopOutput(limit: 1)
        let writer = EventWriter.standard(
            destination: .stderr, identifier: "test", output: output, stderr: NoWaitWrite(descriptor: ends[1]))
        let event = DiagnosticEvent(.messageSent, role: .phone, String(repeating: "x", count: 3000))
        for _ in 0..<60 { writer.writeBatch([event]) }
        #expect(writer.dropped() > 0)
        #expect(writer.dropped() == output.dropped)
        let reader = LoopOutputTests.readAll(ends[0])
        writer.drain()
        close(ends[1])
        _ = reader()
        close(ends[0])
    }
}

/// The daemons' writer with no journal where it was told to send: each event becomes a stderr line, in order.
@Suite("Event writer: a missing journal")
struct EventWriterMissingJournalTests {
    @Test func eventsBecomeStderrLinesInOrderWhenTheJournalSocketIsMissing() {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let writer = EventWriter.standard(
            destination: .journal, identifier: "phoned", pid: 42, stderr: NoWaitWrite(descriptor: ends[1]),
            journalPath: "/nonexistent/watchpair-test/journal.socket")
        let first = DiagnosticEvent(.messageSent, role: .phone, "first")
        let second = DiagnosticEvent(.messageReceived, role: .phone, "second")
        writer.writeBatch([first, second])
        let reader = LoopOutputTests.readAll(ends[0])
        writer.drain()
        close(ends[1])
        let text = String(decoding: reader(), as: UTF8.self)
        close(ends[0])
        let expected = [first, second].map { $0.stderrLine(identifier: "phoned", pid: 42) + "\n" }.joined()
        #expect(text == expected)
    }
}
