import Foundation
import Systemd
import Testing
import WatchPairControlClient
import WatchPairCore
import WatchPairTesting

@testable import WatchPairDaemon
@testable import WatchPairHost

/// A background launch's idle exit (docs/Systemd.md) on a manual clock: an attached control client keeps
/// the daemon up however long it stays, and the idle timer starts when the client leaves.
@Suite("Idle exit", .timeLimit(.minutes(3)))
struct IdleExitTests {
    /// A watch daemon launched in the background on a manual clock, its events collected. An odd idle
    /// timeout (7 s): no other timer of the daemon is likely to end at the same instant.
    static func backgroundWatch(
        in directory: TemporaryDirectory
    ) async throws -> (Daemon, DaemonConfiguration, ManualClock, EventCollector) {
        var configuration = testConfiguration(.watch, in: directory.path)
        configuration.keepAlive.interval = nil
        configuration.launch = .background
        configuration.idleExit = .seconds(7)
        let clock = ManualClock()
        let events = EventCollector()
        let watch = try await buildDaemon(
            configuration: configuration, logger: quietLogger,
            environment: DaemonEnvironment(clock: clock, listenFileDescriptors: ListenFileDescriptors([]), eventWriter: events.writer))
        return (watch, configuration, clock, events)
    }

    @Test("an attached client keeps a background daemon up; idleExit follows its leaving by timeouts.idleExit")
    func attachedClientKeepsTheDaemonUp() async throws {
        let directory = try TemporaryDirectory()
        let (watch, configuration, clock, events) = try await Self.backgroundWatch(in: directory)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await watch.run(handlingSignals: false) }
            try await AsyncControlClientConnection.withConnection(to: configuration.paths.control) { client in
                #expect(try await client.call(["id": 1, "op": "status"])["ok"] == .bool(true))
                // Far past the idle timeout while attached: still up, and no idleExit.
                clock.advance(by: .seconds(60))
                let status = try await client.call(["id": 2, "op": "status"])
                #expect(status["result"]?["launch"] == .string("background"))
                #expect(!events.all.contains { $0.kind == .idleExit })
            }
            // The client left: the idle timer starts then, and ends the daemon one timeout later.
            await clock.waitForSleepers(until: clock.now.advanced(by: .seconds(7)))
            #expect(!events.all.contains { $0.kind == .idleExit })
            clock.advance(by: .seconds(7))
            try await group.waitForAll()
        }
        #expect(events.all.filter { $0.kind == .idleExit }.count == 1)
    }

    @Test("opened (wcctl open), a background daemon stays up past any idle timeout until it is stopped")
    func openedDaemonStaysUp() async throws {
        let directory = try TemporaryDirectory()
        let (watch, configuration, clock, events) = try await Self.backgroundWatch(in: directory)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await watch.run(handlingSignals: false) }
            try await AsyncControlClientConnection.withConnection(to: configuration.paths.control) { client in
                let opened = try await client.call(["id": 1, "op": "open"])
                #expect(opened["result"] == .object(["launch": .string("foreground"), "opened": .bool(true)]))
                let again = try await client.call(["id": 2, "op": "open"])
                #expect(again["result"] == .object(["launch": .string("foreground"), "opened": .bool(false)]), "already open")
            }
            // The client left: a background launch would now start its idle timer. Far past it, still up.
            clock.advance(by: .seconds(60))
            try await AsyncControlClientConnection.withConnection(to: configuration.paths.control) { client in
                let status = try await client.call(["id": 3, "op": "status"])
                #expect(status["result"]?["launch"] == .string("foreground"))
            }
            clock.advance(by: .seconds(60))
            #expect(!events.all.contains { $0.kind == .idleExit })
            await watch.shutdown()
            try await group.waitForAll()
        }
        #expect(events.all.filter { $0.kind == .appOpened }.count == 1)
        #expect(!events.all.contains { $0.kind == .idleExit })
    }
}
