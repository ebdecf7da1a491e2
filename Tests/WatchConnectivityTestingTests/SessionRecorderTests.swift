import Foundation
import Synchronization
import Testing
import WatchConnectivity
import WatchConnectivityTesting
import WatchPairTesting

/// One delegate callback made on a recorder by hand, and what the recorded event must be.
struct Callback: Sendable, CustomTestStringConvertible {
    let name: String
    let make: @Sendable (SessionRecorder, WCSession) -> Void
    let recorded: @Sendable (WCSessionEvent) -> Bool
    var testDescription: String { name }

    static let all: [Callback] = [
        Callback(name: "activated", make: { $0.session($1, activationDidCompleteWith: .activated, error: nil) }) {
            $0 == .activationCompleted(.activated, error: nil) && $0.activationState == .activated
        },
        Callback(name: "activation failed", make: { $0.session($1, activationDidCompleteWith: .notActivated, error: WCError(.sessionNotSupported)) }) {
            $0 == .activationCompleted(.notActivated, error: WCError(.sessionNotSupported))
        },
        Callback(name: "inactive", make: { $0.sessionDidBecomeInactive($1) }) { $0 == .becameInactive },
        Callback(name: "deactivated", make: { $0.sessionDidDeactivate($1) }) { $0 == .deactivated },
        Callback(name: "watch state", make: { $0.sessionWatchStateDidChange($1) }) {
            $0.watchState == WatchStateSnapshot(isPaired: false, isWatchAppInstalled: false, isComplicationEnabled: false) && $0.isStateChange
        },
        Callback(name: "companion installed", make: { $0.sessionCompanionAppInstalledDidChange($1) }) {
            $0 == .companionAppInstalledChanged(false) && $0.isStateChange
        },
        Callback(name: "reachability", make: { $0.sessionReachabilityDidChange($1) }) { $0.isReachable == false && $0.isStateChange },
        Callback(name: "message", make: { $0.session($1, didReceiveMessage: ["n": 1]) }) {
            $0.message?.payload == ["n": 1] && $0.message?.expectsReply == false && !$0.isStateChange
        },
        Callback(name: "message with reply", make: { $0.session($1, didReceiveMessage: ["n": 2], replyHandler: { _ in }) }) {
            $0.message?.payload == ["n": 2] && $0.message?.expectsReply == true
        },
        Callback(name: "data", make: { $0.session($1, didReceiveMessageData: Data([1])) }) {
            $0.messageData?.data == Data([1]) && $0.messageData?.expectsReply == false
        },
        Callback(name: "data with reply", make: { $0.session($1, didReceiveMessageData: Data([2]), replyHandler: { _ in }) }) {
            $0.messageData?.data == Data([2]) && $0.messageData?.expectsReply == true
        },
        Callback(name: "context", make: { $0.session($1, didReceiveApplicationContext: ["v": 3]) }) { $0.applicationContext == ["v": 3] },
        Callback(name: "userInfo", make: { $0.session($1, didReceiveUserInfo: ["item": "milk"]) }) { $0.userInfo == ["item": "milk"] },
    ]
}

@Suite("SessionRecorder", .timeLimit(.minutes(3)))
struct SessionRecorderTests {
    static let session = WCSession(configuration: WCSessionConfiguration(role: .phone, runDirectory: "/nonexistent", stateRoot: "/nonexistent"))

    @Test("each delegate callback is recorded as its event", arguments: Callback.all)
    func recordsEachCallback(_ callback: Callback) async throws {
        let recorder = SessionRecorder()
        callback.make(recorder, Self.session)
        let event = try await recorder.next()
        #expect(callback.recorded(event), "recorded \(event)")
        #expect(recorder.unread.isEmpty)
    }

    @Test("events made before anyone waits are kept, in order; first(where:) consumes what it skips")
    func buffersInOrder() async throws {
        let recorder = SessionRecorder()
        for n in 1...4 { recorder.session(Self.session, didReceiveUserInfo: ["n": n]) }
        recorder.sessionReachabilityDidChange(Self.session)
        #expect(try await recorder.next().userInfo == ["n": 1])
        #expect(try await recorder.first(where: { $0.userInfo == ["n": 3] }).userInfo == ["n": 3])
        #expect(recorder.unread.map(\.userInfo) == [["n": 4], nil])
        #expect(try await recorder.first(\.isReachable) == false)
        #expect(recorder.unread.isEmpty)
    }

    @Test("a wait started before the callback is resumed by it")
    func wakesAWaiter() async throws {
        let recorder = SessionRecorder()
        async let context = recorder.first(\.applicationContext)
        recorder.session(Self.session, didReceiveApplicationContext: ["v": 1])
        #expect(try await context == ["v": 1])
    }

    @Test("the reply of a recorded message calls the session's reply handler, once per call")
    func replies() async throws {
        let recorder = SessionRecorder()
        let replies = Mutex<[String]>([])
        recorder.session(Self.session, didReceiveMessage: ["q": 1]) { reply in
            replies.withLock { $0.append(reply["a"] as? String ?? "?") }
        }
        let message = try await recorder.first(\.message)
        message.reply(["a": "yes"])
        message.reply(["a": "again"] as [String: Any])
        #expect(replies.withLock { $0 } == ["yes", "again"], "the session ignores the second; the recorder passes both")
        recorder.session(Self.session, didReceiveMessage: ["q": 2])
        try await recorder.first(\.message).reply(["a": "nobody asked"])  // no reply handler: nothing happens
        #expect(replies.withLock { $0 }.count == 2)
    }

    @Test("callbacks reach the forwarded delegate first")
    func forwards() async throws {
        let app = CountingDelegate()
        let recorder = SessionRecorder(forwardingTo: app)
        recorder.session(Self.session, didReceiveUserInfo: ["n": 1])
        recorder.sessionReachabilityDidChange(Self.session)
        #expect(app.calls.withLock { $0 } == ["userInfo", "reachability"])
        #expect(try await recorder.next(2).count == 2)
    }

    @Test("a wait with nothing to come ends with TimedOut; a cancelled wait takes no event")
    func timesOutAndCancels() async throws {
        let recorder = SessionRecorder()
        await #expect(throws: TimedOut.self) { try await recorder.next(within: .milliseconds(20)) }
        let waiting = Task { try await recorder.next() }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        recorder.sessionDidDeactivate(Self.session)
        #expect(try await recorder.next() == .deactivated)
    }

    @Test("the buffer is bounded: an event beyond the limit is dropped and the next wait says so, once")
    func overflow() async throws {
        let queue = EventQueue<Int>(limit: 2)
        for n in 1...5 { queue.append(n) }
        await #expect(throws: EventQueueOverflow(dropped: 3, limit: 2)) { try await queue.next() }
        #expect(try await queue.next() == 1)
        #expect(try await queue.next() == 2)
        #expect(queue.unread.isEmpty)
    }

    @Test("events as an AsyncSequence")
    func sequence() async throws {
        let recorder = SessionRecorder()
        for n in 1...3 { recorder.session(Self.session, didReceiveUserInfo: ["n": n]) }
        var seen: [WCPayload] = []
        for try await event in recorder.events {
            seen.append(try #require(event.userInfo))
            if seen.count == 3 { break }
        }
        #expect(seen == [["n": 1], ["n": 2], ["n": 3]])
    }
}

/// An app's delegate that notes which callbacks it got.
final class CountingDelegate: NSObject, WCSessionDelegate, Sendable {
    let calls = Mutex<[String]>([])

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {
        calls.withLock { $0.append("activation") }
    }
    func session(_ session: WCSession, didReceiveUserInfo userInfo: [String: Any]) { calls.withLock { $0.append("userInfo") } }
    func sessionReachabilityDidChange(_ session: WCSession) { calls.withLock { $0.append("reachability") } }
}
