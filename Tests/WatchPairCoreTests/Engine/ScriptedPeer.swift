import Foundation
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// A transport whose peer is the test: each `connect()` hands the engine one end of an in-memory pipe
/// and the test the other (`connections`), so a test can be a black hole or forge the peer's frames.
final class ScriptedPeerTransport: Transport {
    let presence: PeerPresence
    let connections: AsyncStream<InMemoryConnection>
    /// The engine's ends of the same connections, in the same order (to see its writes wait).
    let engineEnds: AsyncStream<InMemoryConnection>
    private let opened: AsyncStream<InMemoryConnection>.Continuation
    private let openedEngineEnd: AsyncStream<InMemoryConnection>.Continuation

    init(presence: PeerPresence = PeerPresence(listening: true, running: true)) {
        self.presence = presence
        (connections, opened) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        (engineEnds, openedEngineEnd) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Accepts nothing; returns when cancelled.
    func serve(_ handler: @escaping @Sendable (any TransportConnection) async -> Void) async throws {
        await AsyncSignal().wait(after: 0)
    }

    func connect() async throws -> any TransportConnection {
        let (engineEnd, peerEnd) = InMemoryConnection.pair(name: "scripted peer")
        opened.yield(peerEnd)
        openedEngineEnd.yield(engineEnd)
        return engineEnd
    }

    func peerPresence() async -> PeerPresence { presence }

    func peerChanges() -> AsyncStream<Void> { AsyncStream { _ in } }

    func announceContentPending(_ pending: Bool) async {}
}

/// One engine with a real store in a temporary directory, over a given transport.
struct SoloEngine: Sendable {
    let engine: PairEngine
    let store: PairStore
    let task: Task<Void, Error>
    let directory: String

    static func start(
        _ role: Role,
        transport: any Transport,
        clock: any Clock<Duration> = ContinuousClock(),
        configure: (inout EngineConfiguration) -> Void = { _ in }
    ) async throws -> SoloEngine {
        var template = Array("/tmp/wps.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        let directory = String(cString: made)
        var configuration = EngineConfiguration(role: role)
        configuration.keepAlive = KeepAlivePolicy(interval: nil)
        configure(&configuration)
        let store = try await PairStore.open(
            StoreConfiguration(directory: "\(directory)/state", durability: .process), logger: quietLogger)
        let engine = try await PairEngine(
            configuration: configuration, store: store, transport: transport, clock: clock, logger: quietLogger,
            jitter: { 0.5 })
        let activated = engine.diagnostics.subscribe()
        let task = Task { try await engine.run() }
        _ = await activated.first { $0.kind == .sessionActivated }
        return SoloEngine(engine: engine, store: store, task: task, directory: directory)
    }

    func stop() async {
        task.cancel()
        _ = try? await task.value
        try? await store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
