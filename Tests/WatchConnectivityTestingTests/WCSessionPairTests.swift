import Foundation
import Synchronization
import Testing
import WatchConnectivity
import WatchConnectivityTesting

/// What an app's delegate saw, as the app's own test would record it.
enum Seen: Sendable, Hashable {
    case activated
    case message(String)
    case userInfo(String)
    case finished(String, failed: Bool)
    case context(String)
}

/// A delegate as an app writes one; reports each callback on ``events``.
final class RecordingDelegate: NSObject, WCSessionDelegate, Sendable {
    let events: AsyncStream<Seen>
    private let continuation: AsyncStream<Seen>.Continuation

    override init() {
        (events, continuation) = AsyncStream.makeStream(of: Seen.self)
    }

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {
        if activationState == .activated { continuation.yield(.activated) }
    }
    func session(_ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void) {
        let text = message["text"] as? String ?? "?"
        continuation.yield(.message(text))
        replyHandler(["echo": text])
    }
    func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any]) {
        continuation.yield(.userInfo(userInfo["item"] as? String ?? "?"))
    }
    func session(_ session: WCSession, didFinish userInfoTransfer: WCSessionUserInfoTransfer, error: (any Error)?) {
        continuation.yield(.finished(userInfoTransfer.userInfo["item"] as? String ?? "?", failed: error != nil))
    }
    func session(_ session: WCSession, didReceiveApplicationContext applicationContext: [String: Any]) {
        continuation.yield(.context(applicationContext["list"] as? String ?? "?"))
    }

    /// The next callback, or nil if the stream ended.
    func next() async -> Seen? {
        var iterator = events.makeAsyncIterator()
        return await iterator.next()
    }
}

/// One test body per channel, run in memory and over real Unix sockets (`WCSessionTestMode`).
@Suite("WCSessionPair: the same bodies in memory and over sockets", .timeLimit(.minutes(1)))
struct WCSessionPairTests {
    /// Activates both sessions of a new pair with fresh delegates.
    func activatedPair(_ mode: WCSessionTestMode) async throws -> (WCSessionPair, phone: RecordingDelegate, watch: RecordingDelegate) {
        let pair = try WCSessionPair(mode)
        let phone = RecordingDelegate()
        let watch = RecordingDelegate()
        pair.phone.delegate = phone
        pair.watch.delegate = watch
        pair.phone.activate()
        pair.watch.activate()
        #expect(await phone.next() == .activated)
        #expect(await watch.next() == .activated)
        await pair.waitUntilReachable()
        return (pair, phone, watch)
    }

    @Test("a message is answered, both ways", arguments: WCSessionTestMode.allCases)
    func messages(_ mode: WCSessionTestMode) async throws {
        let (pair, phoneDelegate, watchDelegate) = try await activatedPair(mode)
        for (sender, receiver, text) in [(pair.phone, watchDelegate, "from phone"), (pair.watch, phoneDelegate, "from watch")] {
            let reply = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
                sender.sendMessage(
                    ["text": text], replyHandler: { continuation.resume(returning: $0["echo"] as? String ?? "?") },
                    errorHandler: { continuation.resume(returning: "error \(($0 as NSError).code)") })
            }
            #expect(reply == text)
            #expect(await receiver.next() == .message(text))
        }
        await pair.shutdown()
    }

    @Test("userInfo transfers arrive in order and the sender hears didFinish", arguments: WCSessionTestMode.allCases)
    func transfers(_ mode: WCSessionTestMode) async throws {
        let (pair, phoneDelegate, watchDelegate) = try await activatedPair(mode)
        let items = ["milk", "eggs", "bread"]
        for item in items {
            #expect(pair.phone.transferUserInfo(["item": item]).userInfo["item"] as? String == item)
        }
        for item in items {
            #expect(await watchDelegate.next() == .userInfo(item))
        }
        for item in items {
            #expect(await phoneDelegate.next() == .finished(item, failed: false))
        }
        #expect(pair.phone.outstandingUserInfoTransfers.isEmpty)
        await pair.shutdown()
    }

    @Test("the application context reaches the counterpart", arguments: WCSessionTestMode.allCases)
    func context(_ mode: WCSessionTestMode) async throws {
        let (pair, phoneDelegate, watchDelegate) = try await activatedPair(mode)
        // Delegates are held weakly, as on Apple's platforms: the test keeps the phone's alive.
        try withExtendedLifetime(phoneDelegate) { try pair.phone.updateApplicationContext(["list": "milk,eggs"]) }
        #expect(await watchDelegate.next() == .context("milk,eggs"))
        #expect(pair.watch.receivedApplicationContext["list"] as? String == "milk,eggs")
        #expect(pair.phone.applicationContext["list"] as? String == "milk,eggs")
        await pair.shutdown()
    }

    @Test("in memory, transfers survive the watch's link breaking: each arrives once, in order")
    func transfersSurviveAFault() async throws {
        let (pair, phoneDelegate, watchDelegate) = try await activatedPair(.inMemory)
        let clock = try #require(pair.clock)
        // The watch's next write (an acknowledgement, or a keep-alive answer) closes its link instead.
        pair.faults?.inject(.disconnect)
        // Reconnecting waits for backoff delays on the manual clock: step it while the test waits.
        let driver = Task {
            while !Task.isCancelled {
                await clock.waitForSleepers(count: 1)
                clock.advance(by: .milliseconds(100))
                await Task.yield()
            }
        }
        defer { driver.cancel() }
        let items = (0..<20).map { "item\($0)" }
        for item in items {
            _ = pair.phone.transferUserInfo(["item": item])
        }
        var received: [String] = []
        while received.count < items.count, let seen = await watchDelegate.next() {
            if case .userInfo(let item) = seen { received.append(item) }
        }
        #expect(received == items)
        var finished: [String] = []
        while finished.count < items.count, let seen = await phoneDelegate.next() {
            if case .finished(let item, failed: false) = seen { finished.append(item) }
        }
        #expect(finished == items)
        #expect(pair.faults?.pendingFaultCount == 0)  // the link did break
        await pair.shutdown()
    }

    @Test("in memory, the test owns the clock and the faults")
    func inMemoryHandles() async throws {
        let pair = try WCSessionPair(.inMemory)
        #expect(pair.clock != nil && pair.network != nil && pair.faults != nil)
        let sockets = try WCSessionPair(.unixSockets)
        #expect(sockets.clock == nil && sockets.network == nil && sockets.faults == nil)
        await pair.shutdown()
        await sockets.shutdown()
    }
}
