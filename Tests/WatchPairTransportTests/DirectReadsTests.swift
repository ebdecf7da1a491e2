import Synchronization
import Testing
@testable import WatchPairTransport
import WatchPairCore
import WatchPairTesting

/// A consumer on the socket's loop takes the reads as the handler gets them (`readDirectly`): what was
/// buffered first, in order, then the end; it pauses the socket and resumes it.
@Suite("reads handed over on the socket's loop")
struct DirectReadsTests {
    /// What a direct consumer saw.
    private struct Seen {
        var bytes: [UInt8] = []
        var reads = 0
        var offLoop = 0
        var ends: [Result<Void, TransportError>] = []
        /// While set, every read pauses the socket.
        var holding = false
    }

    /// One accepted connection of a pair on `loop`, kept open until `done` fires.
    private static func accept(
        _ dir: TemporaryDirectory, loop: SocketEventLoop, done: AsyncSignal
    ) async throws -> (UnixSocketConnection, any TransportConnection, Task<Void, any Error>) {
        let (server, client) = SocketEventLoopTests.pair(dir, loop: loop)
        let accepted = Mutex<UnixSocketConnection?>(nil)
        let arrived = AsyncSignal()
        let serving = try await startServing(server) { connection in
            accepted.withLock { $0 = connection as? UnixSocketConnection }
            arrived.fire()
            await done.wait(after: 0)
        }
        let connection = try await withTimeout { try await client.connect() }
        await arrived.wait(after: 0)
        return (try #require(accepted.withLock { $0 }), connection, serving)
    }

    /// A direct consumer's record.
    private final class Recorder: Sendable {
        let seen: Mutex<Seen>

        init(holding: Bool = false) {
            seen = Mutex(Seen(holding: holding))
        }
    }

    private static func reads(into recorder: Recorder, loop: SocketEventLoop) -> DirectReads {
        DirectReads(
            received: { bytes in
                recorder.seen.withLock { seen in
                    seen.bytes += bytes
                    seen.reads += 1
                    if !loop.isCurrent { seen.offLoop += 1 }
                    return !seen.holding
                }
            },
            ended: { end in recorder.seen.withLock { $0.ends.append(end) } })
    }

    @Test("reads buffered before the hand-over come first, then every later read on the loop, then the end once")
    func bufferedFirstThenLiveThenEnd() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = SocketEventLoop.next()
        let done = AsyncSignal()
        let (reader, writer, serving) = try await Self.accept(dir, loop: loop, done: done)
        try await writer.write(Array("early ".utf8))
        try await withTimeout {
            while reader.bufferedReads == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
        let recorder = Recorder()
        let installed = try await loop.eventLoop.submit {
            reader.readDirectly(on: loop.serialExecutor, Self.reads(into: recorder, loop: loop))
        }.get()
        #expect(installed)
        // Handed over before `readDirectly` returned, nothing left for `inbound`.
        #expect(recorder.seen.withLock { $0.bytes } == Array("early ".utf8))
        #expect(reader.bufferedReads == 0)
        try await writer.write(Array("late".utf8))
        await writer.close()
        try await withTimeout {
            while recorder.seen.withLock({ $0.ends.isEmpty }) { try await Task.sleep(for: .milliseconds(1)) }
        }
        let final = recorder.seen.withLock { $0 }
        #expect(String(decoding: final.bytes, as: UTF8.self) == "early late")
        #expect(final.offLoop == 0)
        #expect(final.ends.count == 1)
        if case .failure(let error) = final.ends.first { Issue.record("the end was an error: \(error)") }
        done.fire()
        try await stopServing(serving)
    }

    @Test("a consumer that pauses stops the socket until it resumes; every byte still arrives, in order")
    func pauseAndResume() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = SocketEventLoop.next()
        let done = AsyncSignal()
        let (reader, writer, serving) = try await Self.accept(dir, loop: loop, done: done)
        let recorder = Recorder(holding: true)
        #expect(try await loop.eventLoop.submit { reader.readDirectly(on: loop.serialExecutor, Self.reads(into: recorder, loop: loop)) }.get())
        let total = 8 * 1024 * 1024
        let payload = (0..<total).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let writing = Task { try await writer.write(payload) }
        try await withTimeout {
            while recorder.seen.withLock({ $0.reads }) == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
        // Many loop iterations with bytes waiting in the socket: an unpaused socket is read in each.
        for _ in 0..<50 { try await loop.eventLoop.submit {}.get() }
        // NIO reads at most four times per `read()`: the first read paused, those may follow, no more.
        #expect(recorder.seen.withLock { $0.reads } <= 1 + 4)
        recorder.seen.withLock { $0.holding = false }
        reader.resumeReading()
        try await withTimeout { try await writing.value }
        try await withTimeout {
            while recorder.seen.withLock({ $0.bytes.count }) < total { try await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(recorder.seen.withLock { $0.bytes } == payload)
        await writer.close()
        done.fire()
        try await stopServing(serving)
    }

    @Test("off the connection's loop, or for another executor, nothing is handed over and inbound reads on")
    func refusedOffTheLoop() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let loop = SocketEventLoop.next()
        let other = SocketEventLoop.dedicated(threadName: "test-other-")
        let done = AsyncSignal()
        let (reader, writer, serving) = try await Self.accept(dir, loop: loop, done: done)
        let recorder = Recorder()
        #expect(!reader.readDirectly(on: loop.serialExecutor, Self.reads(into: recorder, loop: loop)))
        #expect(try await loop.eventLoop.submit { !reader.readDirectly(on: other.serialExecutor, Self.reads(into: recorder, loop: loop)) }.get())
        try await writer.write([1, 2, 3])
        #expect(try await withTimeout { try await readBytes(reader, count: 3) } == [1, 2, 3])
        #expect(recorder.seen.withLock { $0.reads } == 0)
        await writer.close()
        done.fire()
        try await stopServing(serving)
    }
}
