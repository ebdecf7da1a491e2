import Foundation
import Synchronization
import Testing
import WatchPairCore
import WatchPairWire

@testable import WatchConnectivity

@Suite("WCSession launch-time deliveries")
struct WCSessionLaunchTests {
    /// Starts a session whose delegate blocks in `activationDidCompleteWith` until `gate` opens, so
    /// nothing that arrives reaches the app; returns once the session is activated.
    func blockedSession(_ configuration: WCSessionConfiguration, gate: Gate, delegate: FullDelegate) async -> WCSession {
        let session = testSession(configuration)
        session.delegate = delegate
        session.activate()
        await waitUntil(session.snapshotSignal) { session.activationState == .activated }
        return session
    }

    @Test("what arrived or finished while the app was not running is delivered at activation, once")
    func launchTimeDeliveries() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let gate = Gate()
        let blockedPhoneDelegate = FullDelegate(recordsStateChanges: false, onActivation: { gate.wait() })
        let blockedWatchDelegate = FullDelegate(recordsStateChanges: false, onActivation: { gate.wait() })
        let phone1 = await blockedSession(directory.configuration(.phone), gate: gate, delegate: blockedPhoneDelegate)
        let watch1 = await blockedSession(directory.configuration(.watch), gate: gate, delegate: blockedWatchDelegate)
        await waitUntilReachable(watch1)
        watch1.transferUserInfo(["from": "watch"])
        try watch1.updateApplicationContext(["context": 1])
        phone1.transferUserInfo(["from": "phone"])
        // The engines hold everything; the apps have been told nothing (their delegate queues are blocked).
        let phoneEngine = try #require(phone1.activeRuntime?.engine)
        let watchEngine = try #require(watch1.activeRuntime?.engine)
        await waitUntil(phoneEngine.appSignal) {
            let userInfo = (try? await phoneEngine.pendingUserInfo())?.count
            let context = try? await phoneEngine.pendingContext()
            let finished = (try? await phoneEngine.pendingFinished())?.count
            return userInfo == 1 && context != nil && finished == 1
        }
        await waitUntil(watchEngine.appSignal) {
            let userInfo = (try? await watchEngine.pendingUserInfo())?.count
            let finished = (try? await watchEngine.pendingFinished())?.count
            return userInfo == 1 && finished == 1
        }
        // The apps stop ("crash") before handling any of it.
        let stopping = [phone1.beginShutdown(), watch1.beginShutdown()]
        gate.open()
        gate.open()
        for task in stopping { await task?.value }

        // Next launch: everything is delivered, after activation.
        let phoneDelegate = FullDelegate(recordsStateChanges: false)
        let watchDelegate = FullDelegate(recordsStateChanges: false)
        let phone2 = await activatedSession(directory.configuration(.phone), delegate: phoneDelegate)
        #expect(await phoneDelegate.next(3) == [
            .userInfo(["from": .string("watch")]),
            .context(["context": .integer(1)]),
            .finished(["from": .string("phone")], errorCode: nil),
        ])
        #expect(plist(phone2.receivedApplicationContext) == ["context": .integer(1)])
        let watch2 = await activatedSession(directory.configuration(.watch), delegate: watchDelegate)
        #expect(await watchDelegate.next(2) == [.userInfo(["from": .string("phone")]), .finished(["from": .string("watch")], errorCode: nil)])
        await phone2.shutdown()
        await watch2.shutdown()

        // The launch after that: nothing again. A marker is the next thing each side hears of.
        let phoneDelegate3 = FullDelegate(recordsStateChanges: false)
        let watchDelegate3 = FullDelegate(recordsStateChanges: false)
        let phone3 = await activatedSession(directory.configuration(.phone), delegate: phoneDelegate3)
        let watch3 = await activatedSession(directory.configuration(.watch), delegate: watchDelegate3)
        watch3.transferUserInfo(["marker": true])
        #expect(await phoneDelegate3.next() == .userInfo(["marker": .bool(true)]))
        #expect(await watchDelegate3.next() == .finished(["marker": .bool(true)], errorCode: nil))
        await phone3.shutdown()
        await watch3.shutdown()
    }

    @Test("a message that arrives while the app is activating is delivered after activationDidCompleteWith")
    func messageAtLaunch() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let watchDelegate = FullDelegate(recordsStateChanges: false)
        let watch = await activatedSession(directory.configuration(.watch), delegate: watchDelegate)
        let serving = AsyncSignal()
        let hook: @Sendable (PairEngine) async -> Void = { engine in
            let events = engine.diagnostics.subscribe()
            serving.fire()
            for await event in events where event.kind == .messageReceived { return }
        }
        let phoneDelegate = FullDelegate(recordsStateChanges: false)
        let phone = testSession(directory.configuration(.phone), overrides: SessionOverrides(beforeActivationCompletes: hook))
        phone.delegate = phoneDelegate
        phone.activate()
        await serving.wait(after: 0)
        let outcome = SendOutcome()
        watch.sendMessage(["launch": true], replyHandler: outcome.replyHandler(), errorHandler: outcome.errorHandler())
        #expect(await phoneDelegate.next() == .activated(.activated, errorCode: nil))
        #expect(await phoneDelegate.next() == .messageWithReply(["launch": .bool(true)]))
        await outcome.wait()
        #expect(outcome.replies == [["echo": .dictionary(["launch": .bool(true)])]])
        await phone.shutdown()
        await watch.shutdown()
    }
}
