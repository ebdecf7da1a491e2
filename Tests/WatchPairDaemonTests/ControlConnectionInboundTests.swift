import Synchronization
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairTransport
import WatchPairWire

@testable import WatchPairHost

/// A control connection over a transport that cannot hand its reads over on the loop is served from its
/// `inbound`, pumped through the loop's path: the client's first request attaches it, each line is
/// answered (an immediate request, a started one, a malformed line with 7008) and read once, and the end
/// of the input ends it.
@Suite("ControlConnection read from inbound")
struct ControlConnectionInboundTests {
    /// A client whose lines are given up front and whose writes are recorded; it cannot read directly,
    /// and takes writes at once only when told to (so the loop serves lines in place).
    final class ScriptedClient: TransportConnection {
        private let lines: [String]
        private let writes = Mutex<[String]>([])
        private let takesWritesAtOnce: Bool

        init(_ lines: [String], takesWritesAtOnce: Bool = false) {
            self.lines = lines
            self.takesWritesAtOnce = takesWritesAtOnce
        }

        var written: [String] { writes.withLock { $0 } }

        var inbound: AsyncThrowingStream<[UInt8], any Error> {
            let lines = self.lines
            return AsyncThrowingStream { continuation in
                for line in lines { continuation.yield(Array((line + "\n").utf8)) }
                continuation.finish()
            }
        }

        func write(_ bytes: [UInt8]) async throws {
            writes.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) }
        }

        func writeNow(_ bytes: [UInt8]) -> Bool {
            guard takesWritesAtOnce else { return false }
            if !bytes.isEmpty { writes.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) } }
            return true
        }

        func close() async {}
        var description: String { "scripted client" }
    }

    struct Ping: FieldlessControlOperation {
        static let name = "ping"
    }

    struct Later: FieldlessControlOperation {
        static let name = "later"
    }

    /// An operation that counts how often a line of it is read.
    struct Counted: ControlOperation {
        static let name = "counted"
        static let reads = Atomic<Int>(0)

        init(fields: inout ControlFieldReader) throws(WCFailure) {
            while try fields.next() != nil { try fields.skip() }
            Self.reads.add(1, ordering: .relaxed)
        }
    }

    @Test("lines from inbound are answered: immediate, started, malformed; the first request attaches the client")
    func servedFromInbound() async throws {
        var router = ControlRouter()
        router.registerImmediate(Ping.self) { _, _ in .string("pong") }
        router.registerStarted(Later.self) { _, _, respond in respond(.success(.string("later"))) }
        let client = ScriptedClient([#"{"id":1,"op":"ping"}"#, #"{"id":2,"op":"later"}"#, "not json"])
        let connection = ControlConnection(id: 1, writer: ControlWriter(client))
        let attached = Atomic<Int>(0)
        let stopped = Atomic<Int>(0)
        await connection.run(
            client, on: ExecutorIsolation(SocketEventLoop.next().serialExecutor), router: router,
            attached: { attached.add(1, ordering: .relaxed) }, stopped: { stopped.add(1, ordering: .relaxed) })
        // The started request's answer may be written by a task of its own (this client never takes a
        // write at once): a condition, not a duration.
        try await withTimeout {
            while client.written.count < 3 { try await Task.sleep(for: .milliseconds(1)) }
        }
        let written = client.written
        #expect(written.contains { $0.contains(#""id":1"#) && $0.contains("pong") })
        #expect(written.contains { $0.contains(#""id":2"#) && $0.contains("later") })
        #expect(written.contains { $0.contains("7008") })
        #expect(attached.load(ordering: .relaxed) == 1)
        #expect(stopped.load(ordering: .relaxed) == 1)
        #expect(connection.isClosing)
    }

    @Test("a line the loop read and left for a task is not read again")
    func readOnce() async throws {
        var router = ControlRouter()
        router.register(Counted.self) { _, _ in .string("counted") }
        let client = ScriptedClient([#"{"id":1,"op":"counted"}"#, #"{"id":2,"op":"counted"}"#], takesWritesAtOnce: true)
        let connection = ControlConnection(id: 1, writer: ControlWriter(client))
        await connection.run(
            client, on: ExecutorIsolation(SocketEventLoop.next().serialExecutor), router: router,
            attached: {}, stopped: {})
        #expect(client.written.filter { $0.contains("counted") }.count == 2)
        #expect(Counted.reads.load(ordering: .relaxed) == 2)
    }
}
