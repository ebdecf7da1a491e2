import Synchronization
import WatchPairCore

/// Wraps a transport and counts every byte its connections write, firing `written` after each write, so
/// a test can act at a point in a transfer (drop the link at 30%) and bound what was sent in all.
final class ByteCountingTransport: Transport {
    let base: any Transport
    let counter: ByteCounter

    init(wrapping base: any Transport, counter: ByteCounter) {
        self.base = base
        self.counter = counter
    }

    func serve(_ handler: @escaping @Sendable (any TransportConnection) async -> Void) async throws {
        let counter = self.counter
        try await base.serve { connection in await handler(CountingConnection(base: connection, counter: counter)) }
    }

    func connect() async throws -> any TransportConnection {
        CountingConnection(base: try await base.connect(), counter: counter)
    }

    func peerPresence() async -> PeerPresence { await base.peerPresence() }
    func peerChanges() -> AsyncStream<Void> { base.peerChanges() }
    func announceContentPending(_ pending: Bool) async { await base.announceContentPending(pending) }
}

/// Bytes written through one or more `ByteCountingTransport`s (it outlives a restarted engine).
final class ByteCounter: Sendable {
    private let total = Mutex(0)
    /// Fires after every counted write.
    let written = AsyncSignal()

    var bytes: Int { total.withLock { $0 } }

    func add(_ count: Int) {
        total.withLock { $0 += count }
        written.fire()
    }
}

private struct CountingConnection: TransportConnection {
    let base: any TransportConnection
    let counter: ByteCounter

    var inbound: AsyncThrowingStream<[UInt8], any Error> { base.inbound }
    var description: String { base.description }

    func write(_ bytes: [UInt8]) async throws {
        try await base.write(bytes)
        counter.add(bytes.count)
    }

    func writeNow(_ bytes: [UInt8]) -> Bool {
        guard base.writeNow(bytes) else { return false }
        counter.add(bytes.count)
        return true
    }

    func flush() async { await base.flush() }
    func close() async { await base.close() }
}
