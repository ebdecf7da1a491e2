import Foundation
import Systemd
import Testing
import WatchConnection
import WatchPairControlClient
import WatchPairCore
import WatchPairWire

@testable import WatchPairDaemon
@testable import WatchPairHost

/// The daemon's reliability layer (``AppConnection``) is a service of the host: it starts with the
/// engine and ends before `run()` returns, with nothing of it still running.
@Suite("The reliability layer shares the daemon's lifetime", .timeLimit(.minutes(3)))
struct LayerLifetimeTests {
    @Test("after run() returns no task of the layer runs, and a queued request is still on disk")
    func nothingOutlivesShutdown() async throws {
        let directory = try TemporaryDirectory()
        let events = EventCollector()
        let watch = try await buildDaemon(
            configuration: testConfiguration(.watch, in: directory.path), logger: quietLogger,
            environment: DaemonEnvironment(listenFileDescriptors: ListenFileDescriptors([]), eventWriter: events.writer))
        let layer = try #require(watch.faceService as? AppConnection)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await watch.run(handlingSignals: false) }
            let connection = await layer.connection()
            try await AsyncControlClientConnection.withConnection(to: watch.configuration.paths.control) { sender in
                try await AsyncControlClientConnection.withConnection(to: watch.configuration.paths.control) { server in
                    // The phone is off: the request waits in the queue (its sender and its 1 h expiry
                    // timer are running), and a serve client is the handler of another type.
                    try await sender.send(["id": 1, "op": "request", "requestType": "Ping", "body": [:], "strategy": "messageOnly"])
                    await events.wait(for: .requestQueued)
                    let serving = try await server.call(["id": 2, "op": "serve", "requestType": "Pong", "autoReply": [:]])
                    #expect(serving["ok"] == .bool(true), "\(serving)")
                    #expect(await connection.runningTaskCount > 0, "the queued request's timer should be running")

                    await watch.shutdown()
                    try await group.waitForAll()
                }
            }
        }
        #expect(await connection(of: layer).runningTaskCount == 0, "tasks of the layer outlived the daemon")
        let queue = RequestQueueFile(directory: URL(fileURLWithPath: watch.configuration.store.directory)).load(setAsideSuffix: "x")
        #expect(queue.requests.map(\.requestType) == ["Ping"], "the queued request did not stay on disk: \(queue.requests)")
    }

    private func connection(of layer: AppConnection) async -> WatchConnection {
        await layer.connection()
    }
}
