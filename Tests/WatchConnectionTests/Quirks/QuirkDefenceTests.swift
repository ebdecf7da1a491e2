import Foundation
import Testing
import WatchConnection
import WatchConnectionTesting
import WatchPairTesting

/// For each quirk on the live and userInfo paths: code written naively against Apple's documentation
/// fails under it (`NaiveApp` on a `FlakyLink`), and the same scenario through `WatchConnection`
/// holds (`TestLink`, the watch counting its `Greet` handler's runs). docs/Quirks.md names these tests.
@MainActor
@Suite("Quirks: naive code fails, WatchConnection holds", .timeLimit(.minutes(3)))
struct QuirkDefenceTests {
    @Test("phantomReachability: a send chosen by isReachable is lost; a request retries and falls back to userInfo")
    func phantomReachability() async throws {
        let naive = FlakyLink(phone: (.phantomReachability, .always))
        try NaiveApp.sendChoosingByReachability(["add": "1"], on: naive.phone)
        #expect(naive.watchSeen.messages.isEmpty && naive.watchSeen.userInfos.isEmpty, "lost: 7007 behind isReachable == true")

        let (link, phoneSession, runs) = try await TestLink.flakyGreeter()
        phoneSession.setQuirk(.phantomReachability)
        let phone = link.phone
        let send = Task { try await phone.send(Greet(name: "Ada")) }
        for _ in 0..<2 {  // Sleepers: the send's timeout and the retry's 200 ms.
            await link.clock.waitForSleepers(count: 2)
            link.clock.advance(by: .milliseconds(200))
        }
        #expect(try await send.value == Greeting(text: "Hello, Ada"))
        #expect(runs.count == 1)
        #expect(phoneSession.injections(of: .phantomReachability) == 3, "three attempts, then the userInfo fallback")
    }

    @Test("asymmetricReachability: a send that waits for reachability never goes; a request goes by userInfo")
    func asymmetricReachability() async throws {
        let naive = FlakyLink()
        naive.phone.setQuirk(.asymmetricReachability)
        naive.phone.setReachable(false)
        naive.phone.setReachable(true)
        // Naive: send only when reachable, else wait for the next reachability change, which never comes.
        if naive.phone.isReachable { try NaiveApp.sendChoosingByReachability(["add": "1"], on: naive.phone) }
        #expect(naive.watchSeen.messages.isEmpty && naive.watch.isReachable, "the watch reads the phone reachable all along")

        let (link, phoneSession, runs) = try await TestLink.flakyGreeter()
        phoneSession.setQuirk(.asymmetricReachability)
        try await link.makePeerUnreachable()
        phoneSession.setReachable(true)
        #expect(!phoneSession.isReachable)
        #expect(try await link.phone.send(Greet(name: "Ada")) == Greeting(text: "Hello, Ada"))
        #expect(runs.count == 1)
    }

    @Test("lateReply: resending after 7012 runs the receiver twice; a request's retry is answered from its record")
    func lateReply() async throws {
        let naive = FlakyLink(phone: (.lateReply, try FlakyLink.held(1, count: 1)))
        NaiveApp.sendRetryingOnError(["add": "1"], on: naive.phone, completions: Counter())
        await naive.advance(by: .seconds(10))
        await naive.until { naive.watchSeen.messages.count == 2 }  // the receiver ran the add twice

        let (link, phoneSession, runs) = try await TestLink.flakyGreeter()
        phoneSession.setQuirk(.lateReply, try FlakyLink.held(1, count: 1))
        let phone = link.phone
        let send = Task { try await phone.send(Greet(name: "Ada"), retryPolicy: .patient) }
        await link.clock.waitForSleepers(count: 2)  // the send's 30 s, the reply's 10 s
        link.clock.advance(by: .seconds(10))
        await link.clock.waitForSleepers(count: 3)  // + the 200 ms retry delay, the late reply's 1 s
        link.clock.advance(by: .milliseconds(200))
        #expect(try await send.value == Greeting(text: "Hello, Ada"))
        #expect(runs.count == 1, "the repeat was answered with the recorded response")
        #expect(phoneSession.injections(of: .lateReply) == 1)
    }

    @Test("replyAndError: a completion runs twice; a request ends once, with the reply, and nothing is reported failed")
    func replyAndError() async throws {
        let naive = FlakyLink(phone: (.replyAndError, try QuirkSetting(count: 1)))
        let completions = Counter()
        NaiveApp.sendRetryingOnError(["add": "1"], on: naive.phone, completions: completions)
        #expect(completions.count == 2 && naive.watchSeen.messages.count == 2)

        let (link, phoneSession, runs) = try await TestLink.flakyGreeter()
        phoneSession.setQuirk(.replyAndError)
        #expect(try await link.phone.send(Greet(name: "Ada")) == Greeting(text: "Hello, Ada"))
        #expect(try await link.phone.send(Greet(name: "Lin")) == Greeting(text: "Hello, Lin"))
        #expect(runs.count == 2)
        #expect(phoneSession.injections(of: .replyAndError) == 2)
        #expect(link.phone.sessionHealth == .healthy)
        #expect(!link.phoneLog.entries.contains { $0.metadata["WC_EVENT"]?.description == "deliveryFailed" })
    }

    @Test("lostReply: resending after 7012 runs the receiver twice; a request's retry is answered from its record")
    func lostReply() async throws {
        let naive = FlakyLink(phone: (.lostReply, try QuirkSetting(count: 1)))
        NaiveApp.sendRetryingOnError(["add": "1"], on: naive.phone, completions: Counter())
        await naive.advance(by: .seconds(10))
        await naive.until { naive.watchSeen.messages.count == 2 }

        let (link, phoneSession, runs) = try await TestLink.flakyGreeter()
        phoneSession.setQuirk(.lostReply, try QuirkSetting(count: 1))
        let phone = link.phone
        let send = Task { try await phone.send(Greet(name: "Ada"), retryPolicy: .patient) }
        await link.clock.waitForSleepers(count: 2)
        link.clock.advance(by: .seconds(10))
        await link.clock.waitForSleepers(count: 2)
        link.clock.advance(by: .milliseconds(200))
        #expect(try await send.value == Greeting(text: "Hello, Ada"))
        #expect(runs.count == 1)
        #expect(phoneSession.injections(of: .lostReply) == 1)
    }

    @Test("duplicateUserInfo: a counter per received userInfo counts twice; a request's handler runs once")
    func duplicateUserInfo() async throws {
        let naive = FlakyLink(watch: (.duplicateUserInfo, .always))
        try naive.phone.transferUserInfo(["add": "1"])
        #expect(naive.watchSeen.userInfos.count == 2, "added twice")

        let (link, _, runs) = try await TestLink.flakyGreeter()
        let watchSession = try #require(link.flaky).watch
        watchSession.setQuirk(.duplicateUserInfo)
        let events = link.watch.diagnosticEvents
        #expect(try await link.phone.send(Greet(name: "Ada"), strategy: .userInfoOnly) == Greeting(text: "Hello, Ada"))
        #expect(runs.count == 1)
        #expect(watchSession.injections(of: .duplicateUserInfo) == 1)
        let suppressed = await first(events) { if case .duplicateSuppressed = $0 { true } else { false } }
        #expect(suppressed != nil, "the repeat was recognised by its id")
    }

    @Test("stuckUserInfo: a userInfo waits for the next transfer; a request goes live while the peer is reachable")
    func stuckUserInfo() async throws {
        let naive = FlakyLink(phone: (.stuckUserInfo, .always))
        try naive.phone.transferUserInfo(["add": "1"])
        #expect(naive.watchSeen.userInfos.isEmpty && naive.phone.outstandingUserInfoTransfers.count == 1)

        let (link, phoneSession, runs) = try await TestLink.flakyGreeter()
        phoneSession.setQuirk(.stuckUserInfo)
        #expect(try await link.phone.send(Greet(name: "Ada")) == Greeting(text: "Hello, Ada"))
        #expect(runs.count == 1 && phoneSession.outstandingUserInfoTransfers.isEmpty)
    }

    @Test("contextReplay: a contextOnly request replayed at a relaunch is answered from the persisted record, not run")
    func contextReplayAcrossRelaunch() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quirk-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = WatchConnectionConfiguration(storageDirectory: directory)
        let clock = ManualClock()
        let (phoneSession, watchSession) = FlakySession.pair(seed: 12, clock: clock)
        watchSession.setQuirk(.contextReplay)
        let runs = Counter()
        let phone = WatchConnection(session: phoneSession, clock: clock)
        do {
            let watch = WatchConnection(session: watchSession, configuration: configuration, clock: clock)
            watch.registerGreeter(runs)
            try await phone.waitForConnection()
            #expect(try await phone.send(Greet(name: "Ada"), strategy: .contextOnly) == Greeting(text: "Hello, Ada"))
            await watch.close()
        }
        let relaunched = WatchConnection(session: watchSession, configuration: configuration, clock: clock)
        relaunched.registerGreeter(runs)
        let suppressed = await first(relaunched.diagnosticEvents) { if case .duplicateSuppressed = $0 { true } else { false } }
        #expect(suppressed != nil && watchSession.injections(of: .contextReplay) == 1)
        #expect(runs.count == 1, "the replayed request was recognised by its id across the relaunch")
        await relaunched.close()
        await phone.close()
    }
}
