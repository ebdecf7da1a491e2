import Synchronization
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairTransport

/// A socket whose consumer does not read is not read either: at most about ten reads wait (the handler
/// holds back `read()`), the peer's writes block, and once the consumer reads, every byte arrives in order.
@Suite("inbound back-pressure over real sockets")
struct InboundBackPressureTests {
    @Test("a consumer that does not read stops the socket; every byte still arrives, in order")
    func consumerBehind() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (server, client) = UnixSocketTransportTests.pair(dir)
        let total = 8 * 1024 * 1024
        let payload = (0..<total).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let accepted = Mutex<UnixSocketConnection?>(nil)
        let arrived = AsyncSignal()
        let release = AsyncSignal()
        let received = Mutex<[UInt8]>([])
        let serving = try await startServing(server) { connection in
            accepted.withLock { $0 = connection as? UnixSocketConnection }
            arrived.fire()
            await release.wait(after: 0)
            let bytes = (try? await readBytes(connection, count: total)) ?? []
            received.withLock { $0 = bytes }
        }
        let connection = try await withTimeout { try await client.connect() }
        let written = Mutex(false)
        let writer = Task {
            try await connection.write(payload)
            await connection.flush()
            written.withLock { $0 = true }
        }
        await arrived.wait(after: 0)
        let reader = try #require(accepted.withLock { $0 })
        // A condition, not a duration: the reads pile up to the bound and stop there.
        try await withTimeout {
            while reader.bufferedReads < 10 { try await Task.sleep(for: .milliseconds(1)) }
        }
        // NIO reads at most four times per `read()`, so the bound may be passed by those, never more.
        #expect(reader.bufferedReads <= 10 + 4)
        #expect(reader.bufferedReads * 64 * 1024 < total)
        // So the peer's writes wait: 8 MiB do not fit in what is buffered on both sides.
        #expect(!written.withLock { $0 })
        release.fire()
        try await withTimeout { try await writer.value }
        try await withTimeout {
            while received.withLock({ $0.count }) < total { try await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(received.withLock { $0 } == payload)
        await connection.close()
        try await stopServing(serving)
    }
}
