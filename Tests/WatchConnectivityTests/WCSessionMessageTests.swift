import Foundation
import Synchronization
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

@testable import WatchConnectivity
import WatchConnectivityTesting

/// A phone and a watch app in this process, linked over Unix sockets in a temporary directory.
struct LinkedPair {
    let directory: TemporaryDirectory
    let phone: WCSession
    let watch: WCSession
    let phoneDelegate: EventRecorder
    let watchDelegate: EventRecorder

    /// Starts both, linked as `mode` says (in memory, or over Unix sockets in a temporary directory),
    /// and waits until each sees the other as reachable.
    static func start(
        _ mode: WCSessionTestMode = .unixSockets,
        phoneDelegate: EventRecorder & WCSessionDelegate = FullDelegate(recordsStateChanges: false),
        watchDelegate: EventRecorder & WCSessionDelegate = FullDelegate(recordsStateChanges: false),
        replyTimeout: Duration = TemporaryDirectory.realClockTimeout
    ) async throws -> LinkedPair {
        let directory = try TemporaryDirectory()
        let network = mode == .inMemory ? InMemoryNetwork() : nil
        func overrides(_ role: Role) -> SessionOverrides {
            SessionOverrides(transport: network?.transport(for: role))
        }
        let phone = await activatedSession(
            directory.configuration(.phone, replyTimeout: replyTimeout), delegate: phoneDelegate, overrides: overrides(.phone))
        let watch = await activatedSession(
            directory.configuration(.watch, replyTimeout: replyTimeout), delegate: watchDelegate, overrides: overrides(.watch))
        await waitUntilReachable(phone)
        await waitUntilReachable(watch)
        return LinkedPair(directory: directory, phone: phone, watch: watch, phoneDelegate: phoneDelegate, watchDelegate: watchDelegate)
    }

    func stop() async {
        await phone.shutdown()
        await watch.shutdown()
        directory.remove()
    }
}

/// Waits until `session.isReachable`, re-checking on the engine's state changes.
func waitUntilReachable(_ session: WCSession, _ reachable: Bool = true) async {
    guard let engine = session.activeRuntime?.engine else {
        Issue.record("session not active")
        return
    }
    // The session's snapshot follows the engine's state signal; wait on the engine, then on the snapshot.
    await waitUntil(engine.stateSignal) { await engine.isReachable == reachable }
    await waitUntil(session.snapshotSignal) { session.isReachable == reachable }
}

@Suite("WCSession messages")
struct WCSessionMessageTests {
    @Test("dictionary messages with and without reply, both directions", arguments: WCSessionTestMode.allCases)
    func dictionaryMessages(_ mode: WCSessionTestMode) async throws {
        let pair = try await LinkedPair.start(mode)
        try await withTeardown {
            for (sender, receiver) in [(pair.watch, pair.phoneDelegate), (pair.phone, pair.watchDelegate)] {
                let answered = SendOutcome()
                sender.sendMessage(["q": "hello", "n": 1], replyHandler: answered.replyHandler(), errorHandler: answered.errorHandler())
                #expect(await receiver.next() == .messageWithReply(["q": .string("hello"), "n": .integer(1)]))
                await answered.wait()
                #expect(answered.replies == [["echo": .dictionary(["q": .string("hello"), "n": .integer(1)])]])
                #expect(answered.errors.isEmpty)

                let delivered = SendOutcome()
                sender.sendMessage(["fire": "forget"], replyHandler: nil, errorHandler: delivered.errorHandler())
                #expect(await receiver.next() == .message(["fire": .string("forget")]))
                // A later round trip: the message without reply handler reported nothing.
                let later = SendOutcome()
                sender.sendMessage(["after": true], replyHandler: later.replyHandler(), errorHandler: later.errorHandler())
                #expect(await receiver.next() == .messageWithReply(["after": .bool(true)]))
                await later.wait()
                #expect(delivered.count == 0)
            }
        } teardown: {
            await pair.stop()
        }
    }

    @Test("data messages with and without reply", arguments: WCSessionTestMode.allCases)
    func dataMessages(_ mode: WCSessionTestMode) async throws {
        let pair = try await LinkedPair.start(mode)
        try await withTeardown {
            let reply = Mutex<Data?>(nil)
            let outcome = SendOutcome()
            pair.watch.sendMessageData(
                Data([1, 2, 3]),
                replyHandler: { data in
                    reply.withLock { $0 = data }
                    outcome.replyHandler()([:])
                }, errorHandler: outcome.errorHandler())
            #expect(await pair.phoneDelegate.next() == .dataWithReply(Data([1, 2, 3])))
            await outcome.wait()
            #expect(reply.withLock { $0 } == Data([3, 2, 1]))
            pair.phone.sendMessageData(Data([9]), replyHandler: nil)
            #expect(await pair.watchDelegate.next() == .data(Data([9])))
        } teardown: {
            await pair.stop()
        }
    }

    @Test("a message the receiver does not implement fails with 7014", arguments: WCSessionTestMode.allCases)
    func notImplemented(_ mode: WCSessionTestMode) async throws {
        let pair = try await LinkedPair.start(mode, phoneDelegate: MinimalDelegate(recordsStateChanges: false))
        try await withTeardown {
            for wantsReply in [true, false] {
                let outcome = SendOutcome()
                pair.watch.sendMessage(["x": 1], replyHandler: wantsReply ? outcome.replyHandler() : nil, errorHandler: outcome.errorHandler())
                await outcome.wait()
                #expect(outcome.errors == [7014])
            }
            let data = SendOutcome()
            pair.watch.sendMessageData(Data([1]), replyHandler: { _ in data.replyHandler()([:]) }, errorHandler: data.errorHandler())
            await data.wait()
            #expect(data.errors == [7014])
            #expect(pair.phoneDelegate.unread.isEmpty)
        } teardown: {
            await pair.stop()
        }
    }

    @Test("a receiver that never replies gives 7012, and nothing else", arguments: WCSessionTestMode.allCases)
    func missingReply(_ mode: WCSessionTestMode) async throws {
        // In memory the self-driving clock passes the timeout; over sockets it takes its real 600 ms.
        let pair = try WCSessionPair(mode, clock: .automatic, replyTimeout: .milliseconds(600))
        let (phone, _) = try await pair.activate()
        // The phone's recorder answers nothing: the message waits for a reply that never comes.
        let error = await #expect(throws: WCError.self) { try await pair.watch.sendMessageAwaitingReply(["never": true]) }
        #expect(error?.code == .messageReplyTimedOut)
        #expect(try await phone.first(\.message).payload == ["never": true])
        await pair.shutdown()
    }

    @Test("a reply handler called later, off the delegate queue, is delivered once", arguments: WCSessionTestMode.allCases)
    func deferredReply(_ mode: WCSessionTestMode) async throws {
        let holder = ReplyHolder()
        let pair = try await LinkedPair.start(mode, phoneDelegate: holder)
        try await withTeardown {
            let outcome = SendOutcome()
            pair.watch.sendMessage(["later": 1], replyHandler: outcome.replyHandler(), errorHandler: outcome.errorHandler())
            #expect(await holder.next() == .messageWithReply(["later": .integer(1)]))
            let handler = Unchecked(holder.take())
            DispatchQueue.global().async {
                handler.value?(["answer": 42])
                handler.value?(["answer": 43])
            }
            await outcome.wait()
            #expect(outcome.replies == [["answer": .integer(42)]])
            // Another round trip, then check the second call was ignored.
            let again = SendOutcome()
            pair.phone.sendMessage(["ping": 1], replyHandler: again.replyHandler(), errorHandler: again.errorHandler())
            await again.wait()
            #expect(outcome.count == 1)
        } teardown: {
            await pair.stop()
        }
    }

    @Test("invalid, oversized and unreachable messages fail with 7010, 7009 and 7007")
    func failures() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = directory.configuration(.phone)
        configuration.limits = PayloadLimits(message: 100)
        let delegate = FullDelegate(recordsStateChanges: false)
        let phone = await activatedSession(configuration, delegate: delegate)
        try await withTeardown {
            let invalid = SendOutcome()
            phone.sendMessage(["bad": NSNull()], replyHandler: invalid.replyHandler(), errorHandler: invalid.errorHandler())
            await invalid.wait()
            #expect(invalid.errors == [7010])
            let large = SendOutcome()
            phone.sendMessage(["big": String(repeating: "x", count: 200)], replyHandler: nil, errorHandler: large.errorHandler())
            await large.wait()
            #expect(large.errors == [7009])
            let unreachable = SendOutcome()
            phone.sendMessageData(Data([1]), replyHandler: nil, errorHandler: unreachable.errorHandler())
            await unreachable.wait()
            #expect(unreachable.errors == [7007])
        } teardown: {
            await phone.shutdown()
        }
    }
}

/// Keeps the reply handler of the last message so the test can call it later.
final class ReplyHolder: EventRecorder, WCSessionDelegate, @unchecked Sendable {
    private let handler = Mutex<Unchecked<([String: Any]) -> Void>?>(nil)

    init() { super.init(recordsStateChanges: false) }

    func take() -> (([String: Any]) -> Void)? { handler.withLock { $0.take()?.value } }

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {
        record(.activated(activationState, errorCode: errorCode(error)))
    }
    func session(_ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void) {
        handler.withLock { $0 = Unchecked(replyHandler) }
        record(.messageWithReply(plist(message)))
    }
}
