import Synchronization
import WatchPairCore

/// Wraps a transport and counts every byte its connections write, firing `written` after each write, so
/// a test can act at a point in a transfer (drop the link at 30%) and bound what was sent in all; and
/// counts its connect attempts, failed ones included.
final class CountingTransport: Transport {
    let base: any Transport
    let counter: TransportCounter

    init(wrapping base: any Transport, counter: TransportCounter) {
        self.base = base
        self.counter = counter
    }

    func serve(_ handler: @escaping @Sendable (any TransportConnection) async -> Void) async throws {
        let counter = self.counter
        try await base.serve { connection in await handler(CountingConnection(base: connection, counter: counter)) }
    }

    func connect() async throws -> any TransportConnection {
        counter.addConnect()
        return CountingConnection(base: try await base.connect(), counter: counter)
    }

    func peerPresence() async -> PeerPresence { await base.peerPresence() }
    func peerChanges() -> AsyncStream<Void> { base.peerChanges() }
    func announceContentPending(_ pending: Bool) async { await base.announceContentPending(pending) }
}

/// Bytes written and connects tried through one or more `CountingTransport`s (it outlives a restarted
/// engine).
final class TransportCounter: Sendable {
    private let total = Mutex((bytes: 0, connects: 0))
    /// Fires after every counted write.
    let written = AsyncSignal()

    var bytes: Int { total.withLock { $0.bytes } }
    var connects: Int { total.withLock { $0.connects } }

    func add(_ count: Int) {
        total.withLock { $0.bytes += count }
        written.fire()
    }

    func addConnect() {
        total.withLock { $0.connects += 1 }
    }
}

private struct CountingConnection: TransportConnection {
    let base: any TransportConnection
    let counter: TransportCounter

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
