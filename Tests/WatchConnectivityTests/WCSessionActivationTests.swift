import Foundation
import Synchronization
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

@testable import WatchConnectivity
import Logging
import WatchPairTransport

@Suite("WCSession activation and state")
struct WCSessionActivationTests {
    @Test("activation completes once, first, and the session is usable")
    func activation() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let delegate = FullDelegate()
        let session = await activatedSession(directory.configuration(.phone), delegate: delegate)
        #expect(session.activationState == .activated)
        #expect(session.isPaired)
        #expect(!session.isReachable)
        #expect(session.isWatchAppInstalled, "installed unless uninstalled: a watch that never ran is a device that is off")
        #expect(session.applicationContext.isEmpty)
        #expect(session.receivedApplicationContext.isEmpty)
        #expect(!session.isComplicationEnabled)
        // Activating again does nothing.
        session.activate()
        let outcome = SendOutcome()
        session.sendMessage(["x": 1], replyHandler: outcome.replyHandler(), errorHandler: outcome.errorHandler())
        await outcome.wait()
        #expect(outcome.errors == [7007])
        #expect(delegate.unread.isEmpty, "unexpected callbacks: \(delegate.unread)")
        await session.shutdown()
        #expect(session.activationState == .notActivated)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/phoned.sock"))
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/phoned.ctl"))
    }

    @Test("without a delegate nothing activates and sends fail with 7003")
    func missingDelegate() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let session = testSession(directory.configuration(.phone))
        session.activate()
        #expect(session.activationState == .notActivated)
        let outcome = SendOutcome()
        session.sendMessage(["x": 1], replyHandler: outcome.replyHandler(), errorHandler: outcome.errorHandler())
        await outcome.wait()
        #expect(outcome.errors == [7003])
        #expect(throws: WCError(.sessionMissingDelegate)) { try session.updateApplicationContext(["a": 1]) }
        let transfer = session.transferUserInfo(["a": 1])
        #expect(!transfer.isTransferring)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/phoned.sock"))
    }

    @Test("before activation sends fail with 7004")
    func notActivated() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let delegate = FullDelegate()
        let session = testSession(directory.configuration(.watch))
        session.delegate = delegate
        let outcome = SendOutcome()
        session.sendMessageData(Data([1]), replyHandler: { _ in outcome.replyHandler()([:]) }, errorHandler: outcome.errorHandler())
        await outcome.wait()
        #expect(outcome.errors == [7004])
        #expect(throws: WCError(.sessionNotActivated)) { try session.updateApplicationContext(["a": 1]) }
        let transfer = session.transferUserInfo(["a": 1])
        #expect(!transfer.isTransferring)
        #expect(await delegate.next() == .finished(["a": .integer(1)], errorCode: 7004))
        #expect(session.outstandingUserInfoTransfers.isEmpty)
    }

    @Test("activation fails with 7001 while another process holds the socket, and can be retried")
    func socketBusy() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configuration = directory.configuration(.phone)
        let squatter = try ListeningSocket.bind(path: configuration.linkSocketPath, mode: 0o600, logger: Logger(label: "squatter"))
        let delegate = FullDelegate()
        let session = testSession(configuration)
        session.delegate = delegate
        session.activate()
        #expect(await delegate.next() == .activated(.notActivated, errorCode: 7001))
        #expect(session.activationState == .notActivated)
        squatter.removeOwnedFile()
        close(squatter.descriptor)
        session.activate()
        #expect(await delegate.next() == .activated(.activated, errorCode: nil))
        await session.shutdown()
    }

    @Test("the control socket answers status and refuses other requests with 7008")
    func controlSocket() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configuration = directory.configuration(.watch)
        let session = await activatedSession(configuration, delegate: FullDelegate())
        try await withTeardown {
            let status = try JSONSerialization.jsonObject(
                with: Data(try controlRequest(configuration.controlSocketPath, #"{"id":7,"op":"status"}"#).utf8)) as? [String: Any]
            #expect(status?["id"] as? Int == 7)
            #expect(status?["ok"] as? Bool == true)
            let result = status?["result"] as? [String: Any]
            #expect(result?["role"] as? String == "watch")
            #expect(result?["activated"] as? Bool == true)
            #expect(result?["pid"] as? Int == Int(getpid()))
            let refused = try JSONSerialization.jsonObject(
                with: Data(try controlRequest(configuration.controlSocketPath, #"{"id":8,"op":"transfers"}"#).utf8)) as? [String: Any]
            #expect(refused?["ok"] as? Bool == false)
            #expect((refused?["error"] as? [String: Any])?["code"] as? Int == 7008)
        } teardown: {
            await session.shutdown()
        }
    }

    @Test("reachability callbacks fire on each change, and only then; the watch app's launch and stop are no watch-state change")
    func reachability() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let phoneDelegate = FullDelegate()
        let phone = await activatedSession(directory.configuration(.phone), delegate: phoneDelegate)
        #expect(!phone.isReachable)
        let watch = await activatedSession(directory.configuration(.watch), delegate: FullDelegate(recordsStateChanges: false))
        #expect(await phoneDelegate.next() == .reachability(true))
        #expect(phone.isReachable)
        #expect(phone.isWatchAppInstalled)
        #expect(watch.isReachable)
        #expect(watch.isCompanionAppInstalled)
        await watch.shutdown()
        #expect(await phoneDelegate.next() == .reachability(false))
        #expect(!phone.isReachable)
        #expect(phone.isWatchAppInstalled, "a watch that is off still has the app installed")
        // A round trip through the delegate queue: nothing else was reported in between.
        let outcome = SendOutcome()
        phone.sendMessage(["x": 1], replyHandler: outcome.replyHandler(), errorHandler: outcome.errorHandler())
        await outcome.wait()
        #expect(outcome.errors == [7007])
        #expect(phoneDelegate.unread.isEmpty, "unexpected callbacks: \(phoneDelegate.unread)")
        await phone.shutdown()
    }

    @Test("on the watch, reachability callbacks follow the phone app; its launch and stop leave it installed")
    func companionState() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let watchDelegate = FullDelegate()
        let watch = await activatedSession(directory.configuration(.watch), delegate: watchDelegate)
        #expect(watch.isCompanionAppInstalled, "installed unless uninstalled, also before the phone app runs")
        #expect(!watch.isReachable)
        let phoneDelegate = FullDelegate(recordsStateChanges: false)
        let phone = await activatedSession(directory.configuration(.phone), delegate: phoneDelegate)
        #expect(await watchDelegate.next() == .reachability(true))
        // Let the phone's presence link finish its handshake, so the shutdown below is one change.
        await waitUntilReachable(phone)
        await phone.shutdown()
        #expect(await watchDelegate.next() == .reachability(false))
        #expect(watch.isCompanionAppInstalled)
        let outcome = SendOutcome()
        watch.sendMessage(["x": 1], replyHandler: outcome.replyHandler(), errorHandler: outcome.errorHandler())
        await outcome.wait()
        #expect(outcome.errors == [7007])
        #expect(watchDelegate.unread.isEmpty, "unexpected callbacks: \(watchDelegate.unread)")
        await watch.shutdown()
    }

    @Test("an engine that stops makes the session inactive, then deactivated; it can activate again")
    func deactivation() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let network = InMemoryNetwork()
        let failing = FailingTransport(network.transport(for: .phone))
        let delegate = FullDelegate(recordsStateChanges: false)
        let session = await activatedSession(
            directory.configuration(.phone), delegate: delegate, overrides: SessionOverrides(transport: failing))
        failing.fail()
        #expect(await delegate.next() == .inactive)
        #expect(await delegate.next() == .deactivated)
        #expect(session.activationState == .notActivated)
        failing.reset()
        session.activate()
        #expect(await delegate.next() == .activated(.activated, errorCode: nil))
        await session.shutdown()
        #expect(delegate.unread.isEmpty, "unexpected callbacks: \(delegate.unread)")
    }
}

/// A transport whose `serve` throws when the test says so (a listener that breaks).
final class FailingTransport: Transport {
    let base: any Transport
    private let failure = AsyncSignal()
    private let failed = Mutex(false)

    init(_ base: any Transport) { self.base = base }

    func fail() {
        failed.withLock { $0 = true }
        failure.fire()
    }

    func reset() { failed.withLock { $0 = false } }

    func serve(_ handler: @escaping @Sendable (any TransportConnection) async -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.base.serve(handler) }
            group.addTask {
                while !Task.isCancelled {
                    let seen = self.failure.generation
                    if self.failed.withLock({ $0 }) { throw TransportError(.listenFailed, "the test broke the listener") }
                    await self.failure.wait(after: seen)
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    func connect() async throws -> any TransportConnection { try await base.connect() }
    func peerPresence() async -> PeerPresence { await base.peerPresence() }
    func peerChanges() -> AsyncStream<Void> { base.peerChanges() }
    func announceContentPending(_ pending: Bool) async { await base.announceContentPending(pending) }
}
