import Foundation
import Synchronization
import Systemd
import Testing
import WatchPairCore
import WatchPairTesting

@testable import WatchPairDaemon
@testable import WatchPairHost

/// What the daemon tells systemd, recorded instead of sent (the timers run on a manual clock).
@Suite("systemd notifications", .timeLimit(.minutes(1)))
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

        /// Waits until `count` notifications matching `predicate` were sent.
        func wait(count: Int = 1, for predicate: (SystemdNotifications.Notification) -> Bool) async {
            while true {
                let seen = signal.generation
                if all.filter({ predicate($0.notification) }).count >= count { return }
                await signal.wait(after: seen)
            }
        }
    }

    @Test func readyOnceConnectableWatchdogOnTheClockStoppingBeforeTheSocketGoes() async throws {
        let directory = try TemporaryDirectory()
        var configuration = testConfiguration(.phone, in: directory.path)
        configuration.keepAlive.interval = nil
        let clock = ManualClock()
        let recorder = Recorder(controlPath: configuration.paths.control)
        let daemon = try await buildDaemon(
            configuration: configuration, logger: quietLogger,
            environment: DaemonEnvironment(
                clock: clock, listenFileDescriptors: ListenFileDescriptors([]),
                notifier: recorder.notifications(watchdog: .seconds(4)), eventWriter: .discard))
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
            try await ControlTestClient.with(configuration.paths.control) { client in
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
