import Foundation
import Testing
import WatchPairQuirks
import WatchPairWire

@testable import WatchConnectivity
import WatchConnectivityTesting

/// The quirks of real devices through `WCSessionPair.setQuirk(_:_:on:)` (docs/Quirks.md): app code written
/// as Apple documents it, with plain delegates, sees each misbehaviour. In memory, deterministic: the
/// pair's clock moves only when the test (or a kit wait) moves it.
@Suite("WCSession quirks", .timeLimit(.minutes(3)))
struct WCSessionQuirkTests {
    @Test("phantomReachability: isReachable is true with no watch, and the naive send fails 7007")
    func phantomReachability() async throws {
        let pair = try WCSessionPair(.inMemory)
        let phoneDelegate = FullDelegate()
        pair.phone.delegate = phoneDelegate
        pair.phone.activate()
        #expect(await phoneDelegate.next() == .activated(.activated, errorCode: nil))
        #expect(!pair.phone.isReachable)
        await pair.setQuirk(.phantomReachability, on: .phone)
        #expect(await phoneDelegate.next() == .reachability(true))
        // Apple's advice: check isReachable, then send.
        let outcome = SendOutcome()
        if pair.phone.isReachable {
            pair.phone.sendMessage(["ping": 1], replyHandler: outcome.replyHandler(), errorHandler: outcome.errorHandler())
        }
        await outcome.wait()
        #expect(outcome.errors == [7007] && outcome.replies.isEmpty)
        #expect(await pair.quirkStatuses(on: .phone).map(\.injections) == [1])
        await pair.clearQuirk(on: .phone)
        #expect(await phoneDelegate.next() == .reachability(false))
        await pair.shutdown()
    }

    @Test("asymmetricReachability: the watch reaches the phone, the phone never sees the watch reachable")
    func asymmetricReachability() async throws {
        let pair = try WCSessionPair(.inMemory)
        let phoneDelegate = FullDelegate(), watchDelegate = FullDelegate()
        await pair.setQuirk(.asymmetricReachability, on: .phone)
        pair.phone.delegate = phoneDelegate
        pair.watch.delegate = watchDelegate
        pair.phone.activate()
        #expect(await phoneDelegate.next() == .activated(.activated, errorCode: nil))
        pair.watch.activate()
        #expect(await watchDelegate.next() == .activated(.activated, errorCode: nil))
        await pair.watch.waitForReachability(true)
        // The watch's message reaches the phone and is answered...
        let fromWatch = SendOutcome()
        pair.watch.sendMessage(["w": 1], replyHandler: fromWatch.replyHandler(), errorHandler: fromWatch.errorHandler())
        await fromWatch.wait()
        #expect(fromWatch.replies == [["echo": .dictionary(["w": .integer(1)])]])
        #expect(await phoneDelegate.nextContent() == .messageWithReply(["w": .integer(1)]))
        // ...while the phone, linked to it, reads it not reachable and its sends fail at once.
        #expect(!pair.phone.isReachable)
        let fromPhone = SendOutcome()
        pair.phone.sendMessage(["p": 1], replyHandler: fromPhone.replyHandler(), errorHandler: fromPhone.errorHandler())
        await fromPhone.wait()
        #expect(fromPhone.errors == [7007])
        await pair.shutdown()
    }

    /// Both sessions activated with echoing delegates, on a pair with `replyTimeout`.
    /// The clock drives itself (``WCSessionPair/ClockMode/automatic``) only where a timeout must pass:
    /// then the test's code after a kit wait may run on the engine's thread, where synchronous
    /// `WCSession` calls are refused, so those tests make only asynchronous ones.
    static func linked(
        replyTimeout: Duration = .seconds(10), clock: WCSessionPair.ClockMode = .manual
    ) async throws -> (WCSessionPair, FullDelegate, FullDelegate) {
        let pair = try WCSessionPair(.inMemory, clock: clock, replyTimeout: replyTimeout)
        let phoneDelegate = FullDelegate(), watchDelegate = FullDelegate()
        await pair.activate(phoneDelegate, watchDelegate)
        return (pair, phoneDelegate, watchDelegate)
    }

    @Test("lateReply: the reply handler never runs, the error handler gets 7012 once, the late reply is dropped")
    func lateReply() async throws {
        let (pair, phoneDelegate, watchDelegate) = try await Self.linked(replyTimeout: .seconds(2), clock: .automatic)
        await pair.setQuirk(.lateReply, try QuirkSetting(delay: .seconds(1) ... .seconds(1)), on: .phone)
        let outcome = SendOutcome()
        pair.phone.sendMessage(["q": 1], replyHandler: outcome.replyHandler(), errorHandler: outcome.errorHandler())
        try await pair.wait { await outcome.wait() }
        #expect(outcome.errors == [7012] && outcome.replies.isEmpty)
        #expect(await watchDelegate.nextContent() == .messageWithReply(["q": .integer(1)]), "the watch answered")
        // Past the held reply's release: still one outcome (the clock drives itself while the kit waits).
        try await pair.wait { try await pair.clock!.sleep(for: .seconds(5)) }
        let again = SendOutcome()
        await pair.clearQuirk(on: .phone)
        pair.phone.sendMessage(["q": 2], replyHandler: again.replyHandler(), errorHandler: again.errorHandler())
        try await pair.wait { await again.wait() }
        #expect(outcome.count == 1)
        await pair.shutdown()
        withExtendedLifetime((phoneDelegate, watchDelegate)) {}
    }

    @Test("replyAndError: the reply handler runs, then the error handler with 7012, for one message")
    func replyAndError() async throws {
        let (pair, phoneDelegate, watchDelegate) = try await Self.linked()
        await pair.setQuirk(.replyAndError, try QuirkSetting(count: 1), on: .phone)
        let outcome = SendOutcome()
        pair.phone.sendMessage(["q": 1], replyHandler: outcome.replyHandler(), errorHandler: outcome.errorHandler())
        // A second round trip: the delegate queue is serial, so the first message's two outcomes are in.
        let after = SendOutcome()
        await outcome.wait()
        pair.phone.sendMessage(["q": 2], replyHandler: after.replyHandler(), errorHandler: after.errorHandler())
        await after.wait()
        #expect(outcome.replies == [["echo": .dictionary(["q": .integer(1)])]])
        #expect(outcome.errors == [7012])
        #expect(after.count == 1, "spent after one")
        await pair.shutdown()
        withExtendedLifetime((phoneDelegate, watchDelegate)) {}
    }

    @Test("lostReply: the watch's handler ran, the phone gets 7012 at its timeout")
    func lostReply() async throws {
        let (pair, phoneDelegate, watchDelegate) = try await Self.linked(replyTimeout: .seconds(3), clock: .automatic)
        await pair.setQuirk(.lostReply, on: .phone)
        let outcome = SendOutcome()
        pair.phone.sendMessage(["q": 1], replyHandler: outcome.replyHandler(), errorHandler: outcome.errorHandler())
        try await pair.wait { await outcome.wait() }
        #expect(outcome.errors == [7012] && outcome.replies.isEmpty)
        #expect(await watchDelegate.nextContent() == .messageWithReply(["q": .integer(1)]))
        await pair.shutdown()
        withExtendedLifetime(phoneDelegate) {}
    }

    @Test("duplicateUserInfo: didReceiveUserInfo twice for one transfer")
    func duplicateUserInfo() async throws {
        let (pair, phoneDelegate, watchDelegate) = try await Self.linked()
        await pair.setQuirk(.duplicateUserInfo, try QuirkSetting(count: 1), on: .watch)
        pair.phone.transferUserInfo(["n": 1])
        pair.phone.transferUserInfo(["n": 2])
        #expect(await watchDelegate.nextContent() == .userInfo(["n": .integer(1)]))
        #expect(await watchDelegate.nextContent() == .userInfo(["n": .integer(1)]))
        #expect(await watchDelegate.nextContent() == .userInfo(["n": .integer(2)]))
        await pair.shutdown()
        withExtendedLifetime(phoneDelegate) {}
    }

    @Test("contextReplay: at the watch app's relaunch the context it had is delivered again")
    func contextReplay() async throws {
        let (pair, phoneDelegate, watchDelegate) = try await Self.linked()
        await pair.setQuirk(.contextReplay, on: .watch)
        try pair.phone.updateApplicationContext(["mode": "run"])
        #expect(await watchDelegate.nextContent() == .context(["mode": .string("run")]))
        await pair.restart(.watch)
        #expect(await watchDelegate.next() == .activated(.activated, errorCode: nil))
        #expect(await watchDelegate.nextContent() == .context(["mode": .string("run")]), "replayed")
        await pair.shutdown()
        withExtendedLifetime(phoneDelegate) {}
    }

    @Test("stuckUserInfo: a transfer stays outstanding until the next one; then both arrive in order")
    func stuckUserInfo() async throws {
        let (pair, phoneDelegate, watchDelegate) = try await Self.linked()
        await pair.setQuirk(.stuckUserInfo, try QuirkSetting(count: 1), on: .phone)
        pair.phone.transferUserInfo(["n": 1])
        // Round trips on the same link: the first transfer had every chance to go.
        for n in 0..<3 {
            let outcome = SendOutcome()
            pair.phone.sendMessage(["r": n], replyHandler: outcome.replyHandler(), errorHandler: outcome.errorHandler())
            await outcome.wait()
        }
        #expect(pair.phone.outstandingUserInfoTransfers.count == 1)
        #expect(phoneDelegate.unread.allSatisfy { if case .finished = $0 { false } else { true } })
        pair.phone.transferUserInfo(["n": 2])
        var received: [DelegateEvent?] = []
        // The three messages, then the two transfers.
        for _ in 0..<5 { received.append(await watchDelegate.nextContent()) }
        #expect(received.filter { if case .userInfo = $0 { true } else { false } } == [.userInfo(["n": .integer(1)]), .userInfo(["n": .integer(2)])])
        await pair.shutdown()
    }

    @Test("installedFlapping: the phone reads the watch app not installed after launch, then sessionWatchStateDidChange")
    func installedFlapping() async throws {
        let pair = try WCSessionPair(.inMemory)
        await pair.setQuirk(.installedFlapping, try QuirkSetting(delay: .seconds(2) ... .seconds(2)), on: .phone)
        let phoneDelegate = FullDelegate()
        pair.phone.delegate = phoneDelegate
        pair.phone.activate()
        #expect(await phoneDelegate.next() == .activated(.activated, errorCode: nil))
        // Apple's naive app trusts what it reads at launch: the watch app is not installed...
        #expect(!pair.phone.isWatchAppInstalled)
        // ...until the drawn delay has passed on the pair's clock (the flap's timer is its only sleeper).
        let clock = try #require(pair.clock)
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(2))
        let change = await phoneDelegate.next()
        #expect(change == .watchStateChanged(installed: true), "\(String(describing: change)), then \(phoneDelegate.unread)")
        #expect(pair.phone.isWatchAppInstalled)
        await pair.shutdown()
    }

    @Test("delayedDelivery: didReceiveUserInfo only after the drawn delay")
    func delayedDelivery() async throws {
        let pair = try WCSessionPair(.inMemory)
        let phoneDelegate = FullDelegate(), watchDelegate = FullDelegate()
        await pair.activate(phoneDelegate, watchDelegate)
        await pair.setQuirk(.delayedDelivery, try QuirkSetting(delay: .seconds(3) ... .seconds(3)), on: .watch)
        pair.phone.transferUserInfo(["n": 1])
        // The watch stored and acknowledged it (the phone's didFinish), but its app has not been given it.
        #expect(await phoneDelegate.nextContent() == .finished(["n": .integer(1)], errorCode: nil))
        let early = watchDelegate.unread.filter { !$0.isStateChange }
        #expect(early.isEmpty, "\(early)")
        let clock = try #require(pair.clock)
        clock.advance(by: .seconds(3))
        #expect(await watchDelegate.nextContent() == .userInfo(["n": .integer(1)]))
        await pair.shutdown()
    }
}
