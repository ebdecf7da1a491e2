import Foundation
import Synchronization
import Systemd
import Testing
import WatchPairControlClient
import WatchPairCore
import WatchPairTesting
import WatchPairWire

@testable import WatchPairDaemon
@testable import WatchPairHost

/// What the daemon tells systemd, recorded instead of sent (the timers run on a manual clock).
@Suite("systemd notifications", .timeLimit(.minutes(3)))
struct SystemdNotificationTests {
    /// Each notification, with whether the control socket existed when it was sent.
    final class Recorder: Sendable {
        private let sent = Mutex<[(notification: SystemdNotifications.Notification, controlExists: Bool)]>([])
        let signal = AsyncSignal()
        let controlPath: String

        init(controlPath: String) { self.controlPath = controlPath }

        func notifications(watchdog: Duration?) -> SystemdNotifications {
            SystemdNotifications(watchdogInterval: watchdog) { notification in
                let exists = FileManager.default.fileExists(atPath: self.controlPath)
                self.sent.withLock { $0.append((notification, exists)) }
                self.signal.fire()
            }
        }

        var all: [(notification: SystemdNotifications.Notification, controlExists: Bool)] { sent.withLock { $0 } }

        /// Waits until `count` notifications matching `predicate` were sent (or the test's time limit ends it).
        func wait(count: Int = 1, for predicate: (SystemdNotifications.Notification) -> Bool) async {
            while !Task.isCancelled {
                let seen = signal.generation
                if all.filter({ predicate($0.notification) }).count >= count { return }
                await signal.wait(after: seen)
            }
        }
    }

    /// A daemon of `role` in `directory` on a manual clock (no keep-alive), its notifications recorded.
    static func recordedDaemon(
        _ role: Role, in directory: TemporaryDirectory, watchdog: Duration?
    ) async throws -> (Daemon, ManualClock, Recorder) {
        var configuration = testConfiguration(role, in: directory.path)
        configuration.keepAlive.interval = nil
        let clock = ManualClock()
        let recorder = Recorder(controlPath: configuration.paths.control)
        let daemon = try await buildDaemon(
            configuration: configuration, logger: quietLogger,
            environment: DaemonEnvironment(
                clock: clock, listenFileDescriptors: ListenFileDescriptors([]),
                notifier: recorder.notifications(watchdog: watchdog), eventWriter: .discard))
        return (daemon, clock, recorder)
    }

    @Test func readyOnceConnectableWatchdogOnTheClockStoppingBeforeTheSocketGoes() async throws {
        let directory = try TemporaryDirectory()
        let (daemon, clock, recorder) = try await Self.recordedDaemon(.phone, in: directory, watchdog: .seconds(4))
        let configuration = daemon.configuration
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await daemon.run(handlingSignals: false) }
            await recorder.wait { if case .ready = $0 { true } else { false } }
            let ready = try #require(recorder.all.first)
            guard case .ready(let status) = ready.notification else {
                Issue.record("the first notification is \(ready.notification), not READY=1")
                return
            }
            #expect(status.hasPrefix("link disconnected, 0 outstanding transfers"))
            #expect(ready.controlExists)
            // The control socket answers as soon as READY=1 is out.
            try await AsyncControlClientConnection.withConnection(to: configuration.paths.control) { client in
                let status = try await client.call(["id": 1, "op": "status"])
                #expect(status["ok"] == .bool(true))
            }

            // Pings every interval/2, each after the engine answered.
            await recorder.wait { $0 == .watchdog }
            await clock.waitForSleepers(count: 2)  // the status refresh and the watchdog
            clock.advance(by: .seconds(2))
            await recorder.wait(count: 2) { $0 == .watchdog }

            await daemon.shutdown()
            try await group.waitForAll()
        }
        let stopping = try #require(recorder.all.first { $0.notification == .stopping })
        #expect(stopping.controlExists, "STOPPING=1 comes before the control socket is removed")
        #expect(recorder.all.last?.notification == .stopping)
        #expect(!FileManager.default.fileExists(atPath: configuration.paths.control))
    }

    /// The "N waiting for the app" counts of the `STATUS=` lines sent so far, in order.
    static func waitingCounts(_ recorder: Recorder) -> [Int] {
        recorder.all.compactMap { sent -> Int? in
            guard case .status(let line) = sent.notification,
                let part = line.split(separator: ", ").first(where: { $0.hasSuffix(" waiting for the app") })
            else { return nil }
            return Int(part.prefix { $0.isNumber })
        }
    }

    // Each transfer the watch receives changes its line ("N waiting for the app"). One STATUS= per change
    // was a datagram to PID 1 and an engine call per transfer; now the first change goes at once and the
    // rest of that second together when it is over (StatusPacing). The old code sends 1, 2, 3, 4 and 5.
    @Test("STATUS= follows five quick transfers with at most two lines, the last one current")
    func statusIsPacedUnderLoad() async throws {
        let directory = try TemporaryDirectory()
        let (watch, clock, recorder) = try await Self.recordedDaemon(.watch, in: directory, watchdog: nil)
        let phone = try await buildDaemon(
            configuration: testConfiguration(.phone, in: directory.path), logger: quietLogger,
            environment: DaemonEnvironment(listenFileDescriptors: ListenFileDescriptors([]), eventWriter: .discard))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await watch.run(handlingSignals: false) }
            group.addTask { try await phone.run(handlingSignals: false) }
            await recorder.wait { if case .ready = $0 { true } else { false } }
            // One at a time, each in the watch's inbox (no watch app runs) before the next: five changes.
            try await AsyncControlClientConnection.withConnection(to: phone.configuration.paths.control) { client in
                for index in 1...5 {
                    let response = try await client.call(["id": .integer(Int64(index)), "op": "transfer", "userInfo": ["n": .integer(Int64(index))]])
                    #expect(response["ok"] == .bool(true))
                    await waitForStatus(of: watch.engine, wokenBy: watch.engine.appSignal) { $0.inboxPending == index }
                }
            }
            // Whatever was sent so far, the next line is due one interval after the start at the latest.
            clock.advance(by: SystemdNotifierService.statusMinimumInterval)
            await recorder.wait { if case .status(let line) = $0 { line.contains(", 5 waiting for the app") } else { false } }
            let counts = Self.waitingCounts(recorder).filter { $0 > 0 }
            #expect(counts.count <= 2, "one STATUS= per transfer: \(counts)")
            #expect(counts.last == 5)
            await phone.shutdown()
            await watch.shutdown()
            try await group.waitForAll()
        }
    }

    @Test func outsideSystemdNothingIsSent() async throws {
        let directory = try TemporaryDirectory()
        let recorder = Recorder(controlPath: "")
        var notifications = recorder.notifications(watchdog: .seconds(1))
        notifications.isEnabled = false
        let daemon = try await buildDaemon(
            configuration: testConfiguration(.watch, in: directory.path), logger: quietLogger,
            environment: DaemonEnvironment(listenFileDescriptors: ListenFileDescriptors([]), notifier: notifications, eventWriter: .discard))
        await daemon.shutdown()  // before run: run starts and stops at once
        try await daemon.run(handlingSignals: false)
        #expect(recorder.all.isEmpty)
    }
}
