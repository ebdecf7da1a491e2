import Foundation
import Synchronization
import Testing
@testable import WatchPairTransport
import WatchPairCore
import WatchPairTesting

@Suite("SocketEventLoop: transports that share a loop")
struct SocketEventLoopTests {
    /// A listening transport on `dir/a.sock` and a connecting one, both made with `loop`.
    static func pair(_ dir: TemporaryDirectory, loop: SocketEventLoop) -> (server: UnixSocketTransport, client: UnixSocketTransport) {
        let server = UnixSocketTransport(
            configuration: .init(listener: .bind(path: dir("a.sock")), peerLinkPath: dir("b.sock"), peerControlPath: dir("b.ctl")),
            loop: loop, logger: .init(label: "test"))
        let client = UnixSocketTransport(
            configuration: .init(listener: .none, peerLinkPath: dir("a.sock"), peerControlPath: dir("a.ctl")),
            loop: loop, logger: .init(label: "test"))
        return (server, client)
    }

    // NIO's group hands sockets its loops in turn; without the shared loop, of four connections (eight
    // sockets) some would land on another loop of the group whenever it has more than one.
    @Test("every accepted and every made connection runs on the shared loop")
    func connectionsShareTheLoop() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = SocketEventLoop.next()
        let (server, client) = Self.pair(dir, loop: loop)
        let accepted = Mutex<[Bool]>([])
        let serving = try await startServing(server) { connection in
            accepted.withLock { $0.append((connection as? UnixSocketConnection)?.runs(on: loop) == true) }
            try? await connection.write([1])
            _ = try? await readToEnd(connection)
        }
        var made: [Bool] = []
        for _ in 0..<4 {
            let connection = try await withTimeout { try await client.connect() }
            made.append((connection as? UnixSocketConnection)?.runs(on: loop) == true)
            // The accepted side answers once it checked its connection.
            #expect(try await withTimeout { try await readBytes(connection, count: 1) } == [1])
            await connection.close()
        }
        try await stopServing(serving)
        #expect(made == [true, true, true, true])
        #expect(accepted.withLock { $0 } == [true, true, true, true])
    }

    // An app's engine runs where its sockets are read (EngineExecutor): its tasks must start, and come
    // back after a resumption from another thread, on the loop's thread and not on a pool thread.
    @Test("a dedicated loop runs the tasks that prefer its executor on its thread, also after a resumption")
    func dedicatedLoopRunsTasksOnItsThread() async {
        let loop = SocketEventLoop.dedicated(threadName: "test-loop-")
        #expect(!loop.isCurrent)
        let seen = await withTaskExecutorPreference(SocketLoopExecutor(loop)) { () -> [Bool] in
            await Task.yield()
            var seen = [loop.isCurrent]
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume() }
            }
            seen.append(loop.isCurrent)
            return seen
        }
        #expect(seen == [true, true])
        let ran = await withCheckedContinuation { continuation in
            loop.execute { continuation.resume(returning: loop.isCurrent) }
        }
        #expect(ran)
    }

    /// Connects a client to a server (both on one shared loop), lets `send` write and close, and returns
    /// everything the server read from that connection.
    static func bytesReceived(
        after send: @Sendable (any TransportConnection, SocketEventLoop) async throws -> Void
    ) async throws -> [UInt8] {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = SocketEventLoop.next()
        let (server, client) = Self.pair(dir, loop: loop)
        let received = AsyncStream<[UInt8]>.makeStream()
        let serving = try await startServing(server) { connection in
            received.continuation.yield((try? await readToEnd(connection)) ?? [])
            received.continuation.finish()
        }
        let connection = try await withTimeout { try await client.connect() }
        try await send(connection, loop)
        var iterator = received.stream.makeAsyncIterator()
        let bytes = try #require(await iterator.next())
        try await stopServing(serving)
        return bytes
    }

    @Test("lines from two concurrent writers arrive whole, each in its writer's order")
    func writesStayOrdered() async throws {
        let bytes = try await Self.bytesReceived { connection, _ in
            // Two writers, each writing numbered lines; each writer's lines must arrive whole and in its order.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in ["a", "b"] {
                    group.addTask {
                        for index in 0..<500 { try await connection.write(Array("\(writer)\(index)\n".utf8)) }
                    }
                }
                try await group.waitForAll()
            }
            await connection.flush()
            await connection.close()
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 1000)
        #expect(lines.filter { $0.hasPrefix("a") } == (0..<500).map { "a\($0)" })
        #expect(lines.filter { $0.hasPrefix("b") } == (0..<500).map { "b\($0)" })
    }

    // Writes made on the loop are flushed once per tick; a close right after them must still send them
    // (without the flush in close(), the peer gets none of these lines: NIO fails unflushed writes).
    @Test("writes made on the loop, then a close at once: the peer gets every line, in order")
    func writesOnTheLoopThenCloseLoseNothing() async throws {
        let bytes = try await Self.bytesReceived { connection, loop in
            let onLoop = await withTaskExecutorPreference(SocketLoopExecutor(loop)) {
                await Task.yield()
                let onLoop = loop.eventLoop.inEventLoop
                for index in 0..<200 { #expect(connection.writeNow(Array("line\(index)\n".utf8))) }
                await connection.close()
                return onLoop
            }
            #expect(onLoop)
        }
        #expect(String(decoding: bytes, as: UTF8.self) == (0..<200).map { "line\($0)\n" }.joined())
    }
}
