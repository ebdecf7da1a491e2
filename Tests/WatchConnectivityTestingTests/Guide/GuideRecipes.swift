import Testing
import WatchConnectivity
import WatchConnectivityTesting

// docs/Testing.md quotes these tests; TestingGuideDocTests checks that every Swift block there is a part of
// the file named before it, so what the guide shows compiles and runs.

@Suite("docs/Testing.md: the recipes", .timeLimit(.minutes(3)))
struct GuideRecipes {
    @Test("the application context reaches the watch", arguments: WCSessionTestMode.allCases)
    func contextArrives(_ mode: WCSessionTestMode) async throws {
        let pair = try WCSessionPair(mode)
        let (_, watch) = try await pair.activate()
        try pair.phone.updateApplicationContext(["list": ["milk", "eggs"]])
        let context = try await watch.first(\.applicationContext)
        #expect(context["list"] as? [String] == ["milk", "eggs"])
        #expect(pair.watch.receivedApplicationContext["list"] as? [String] == ["milk", "eggs"])
        await pair.shutdown()
    }

    @Test("userInfo waits for a watch app that is not running", arguments: WCSessionTestMode.allCases)
    func userInfoWaitsForTheWatchApp(_ mode: WCSessionTestMode) async throws {
        let pair = try WCSessionPair(mode)
        let phone = try await pair.activate(.phone)
        pair.phone.transferUserInfo(["item": "milk"])  // durable now; the watch app has not started
        #expect(pair.phone.outstandingUserInfoTransfers.count == 1)
        let watch = try await pair.activate(.watch)  // the app starts: the transfer is delivered
        #expect(try await watch.first(\.userInfo)["item"] as? String == "milk")
        let finished = try await phone.first(\.finishedUserInfo)
        #expect(finished.userInfo == ["item": "milk"] && finished.error == nil)
        await pair.shutdown()
    }

    @Test("the watch's reply reaches the phone", arguments: WCSessionTestMode.allCases)
    func replyArrives(_ mode: WCSessionTestMode) async throws {
        let pair = try WCSessionPair(mode)
        let (_, watch) = try await pair.activate()
        async let reply = pair.phone.sendMessageAwaitingReply(["get": "list"])
        let message = try await watch.first(\.message)
        #expect(message["get"] as? String == "list" && message.expectsReply)
        message.reply(["items": ["milk"]])
        #expect(try await reply == ["items": ["milk"]])
        await pair.shutdown()
    }

    @Test("the app's own delegate answers", arguments: WCSessionTestMode.allCases)
    func appDelegateAnswers(_ mode: WCSessionTestMode) async throws {
        let pair = try WCSessionPair(mode)
        let (_, watch) = try await pair.activate(watch: ListServer(items: ["milk", "eggs"]))
        let reply = try await pair.phone.sendMessageAwaitingReply(["get": "list"])
        #expect(reply["items"] as? [String] == ["milk", "eggs"])
        #expect(try await watch.first(\.message)["get"] as? String == "list")  // recorded after the app ran
        await pair.shutdown()
    }

    @Test("no reply within the timeout is 7012, on the self-driving clock")
    func noReplyTimesOut() async throws {
        let pair = try WCSessionPair(.inMemory, clock: .automatic)
        try await pair.activate()  // the watch's recorder answers only when the test does
        let error = await #expect(throws: WCError.self) { try await pair.phone.sendMessageAwaitingReply(["get": "list"]) }
        #expect(error?.code == .messageReplyTimedOut)
        await pair.shutdown()
    }

    @Test("a lost reply gives 7012, on the self-driving clock")
    func lostReply() async throws {
        let pair = try WCSessionPair(.inMemory, clock: .automatic)
        let faults = try #require(pair.faults)
        let (_, watch) = try await pair.activate()
        let reply = Task { try await pair.phone.sendMessageAwaitingReply(["get": "list"]) }
        let message = try await watch.first(\.message)
        faults.inject(.drop)  // the watch's next write, its reply, is lost
        message.reply(["items": ["milk"]])
        let error = await #expect(throws: WCError.self) { try await reply.value }
        #expect(error?.code == .messageReplyTimedOut)
        await pair.shutdown()
    }

    @Test("a lost reply gives 7012, stepping the clock by hand")
    func lostReplySteppingTheClock() async throws {
        let pair = try WCSessionPair(.inMemory)  // clock: .manual
        let (clock, faults) = (try #require(pair.clock), try #require(pair.faults))
        let (_, watch) = try await pair.activate()
        let reply = Task { try await pair.phone.sendMessageAwaitingReply(["get": "list"]) }
        let message = try await watch.first(\.message)
        faults.inject(.drop)
        message.reply(["items": ["milk"]])
        var applied = faults.appliedFaults.makeAsyncIterator()
        #expect(await applied.next()?.fault == .drop)  // the reply is gone
        clock.advance(by: .seconds(10))  // the phone's reply timeout
        let error = await #expect(throws: WCError.self) { try await reply.value }
        #expect(error?.code == .messageReplyTimedOut)
        await pair.shutdown()
    }
}

/// The watch app's delegate, as the app writes it: answers every message with its list.
final class ListServer: NSObject, WCSessionDelegate {
    let items: [String]

    init(items: [String]) {
        self.items = items
    }

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {}

    func session(_ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void) {
        replyHandler(["items": items])
    }
}

extension GuideRecipes {
    @Test("a phone with two watches: a switch, and the app re-activates")
    func switchWatches() async throws {
        let pair = try WCSessionPair(.inMemory, watches: ["a", "b"])
        let phone = try await pair.activate(.phone)
        try await pair.switch(to: "b")
        try await phone.first { $0 == .becameInactive }
        try await phone.first { $0 == .deactivated }
        pair.phone.activate()                      // as your app must, in sessionDidDeactivate
        #expect(try await phone.first(\.activationState) == .activated)
        #expect(pair.activeWatch == "b" && pair.phone.isPaired)
        await pair.shutdown()
    }
}
