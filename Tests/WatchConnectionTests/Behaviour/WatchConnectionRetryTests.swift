import Foundation
import Testing
import WatchConnection
import WatchConnectionTesting
import WatchPairTesting

/// Retries, exactly-once and timeouts over `FlakySession`s, stepped on the manual clock (no sleeping).
@MainActor
@Suite("WatchConnection retries and exactly-once", .timeLimit(.minutes(3)))
struct WatchConnectionRetryTests {
    @Test("two transient failures: retried 200 ms apart on the clock, then answered")
    func fixedDelays() async throws {
        let (link, phoneSession, runs) = try await TestLink.flakyGreeter()
        phoneSession.script([.fail(code: 7014), .fail(code: 7014)])
        let phone = link.phone
        let send = Task { try await phone.send(Greet(name: "Ada")) }
        // Sleepers: the send's 10 s timeout and the 200 ms retry delay.
        await link.clock.waitForSleepers(count: 2)
        #expect(phoneSession.history.count == 1)
        link.clock.advance(by: .milliseconds(199))
        #expect(phoneSession.history.count == 1)
        link.clock.advance(by: .milliseconds(1))
        await link.clock.waitForSleepers(count: 2)
        #expect(phoneSession.history.count == 2)
        link.clock.advance(by: .milliseconds(200))
        #expect(try await send.value == Greeting(text: "Hello, Ada"))
        #expect(phoneSession.history == [.fail(code: 7014), .fail(code: 7014), .deliver])
        #expect(runs.count == 1)
    }

    @Test("each attempt is numbered: failures 1 and 2, the answer from 3, all of one request (WC_ATTEMPT)")
    func attemptsNumbered() async throws {
        let (link, phoneSession, _) = try await TestLink.flakyGreeter()
        let records = link.phone.diagnosticRecords
        phoneSession.script([.fail(code: 7014), .fail(code: 7014)])
        let phone = link.phone
        let send = Task { try await phone.send(Greet(name: "Ada")) }
        for _ in 0..<2 {
            await link.clock.waitForSleepers(count: 2)
            link.clock.advance(by: .milliseconds(200))
        }
        _ = try await send.value
        var attempts: [String: [Int?]] = [:]
        var ids: Set<UUID?> = []
        for await record in records {
            switch record.event {
            case .deliveryFailed: attempts["failed", default: []].append(record.attempt)
            case .messageSent: attempts["sent", default: []].append(record.attempt)
            default: continue
            }
            ids.insert(record.requestID)
            if record.event.name == "requestSent" { break }
        }
        #expect(attempts["failed"] == [1, 2])
        #expect(attempts["sent"] == [3])
        #expect(ids.count == 1 && ids.first! != nil, "every record names the one request")
        let logged = link.phoneLog.entries.filter { ["deliveryFailed", "requestSent"].contains($0.metadata["WC_EVENT"]?.description) }
        #expect(logged.map { $0.metadata["WC_ATTEMPT"]?.description } == ["1", "2", "3"])
        #expect(Set(logged.map { $0.metadata["WC_REQUEST_ID"]?.description }).count == 1)
    }

    @Test("never retried: 7008, 7009, 7010 fail at once", arguments: [7008, 7009, 7010])
    func notRetried(code: Int) async throws {
        let link = try await TestLink(.flaky)
        let (phoneSession, _) = try #require(link.flaky)
        phoneSession.script([.fail(code: code)])
        await #expect(throws: WatchConnectionError.sessionError(code: code, description: "FlakySession fault \(code)")) {
            try await link.phone.send(Greet(name: "x"), strategy: .messageOnly)
        }
        #expect(phoneSession.history.count == 1)
    }

    @Test("a lost reply is retried; the repeat is answered from the record, the handler ran once")
    func lostReply() async throws {
        let (link, phoneSession, runs) = try await TestLink.flakyGreeter()
        let events = link.watch.diagnosticEvents
        phoneSession.script([.loseReply])
        let phone = link.phone
        let send = Task { try await phone.send(Greet(name: "Ada")) }
        await link.clock.waitForSleepers(count: 2)
        link.clock.advance(by: .milliseconds(200))
        #expect(try await send.value.text == "Hello, Ada")
        #expect(runs.count == 1)
        let suppressed = await first(events) { if case .duplicateSuppressed = $0 { true } else { false } }
        guard case .duplicateSuppressed(let type, _)? = suppressed else {
            Issue.record("no duplicateSuppressed")
            return
        }
        #expect(type == "Greet")
    }

    @Test("every reply lost: fallback to userInfo, the receiver answers from its record, ran once")
    func fallbackAfterLostReplies() async throws {
        let (link, phoneSession, runs) = try await TestLink.flakyGreeter()
        let events = link.phone.diagnosticEvents
        phoneSession.script([.loseReply, .loseReply, .loseReply])
        let phone = link.phone
        let send = Task { try await phone.send(Greet(name: "Ada")) }
        for _ in 0..<2 {
            await link.clock.waitForSleepers(count: 2)
            link.clock.advance(by: .milliseconds(200))
        }
        #expect(try await send.value.text == "Hello, Ada")
        #expect(runs.count == 1)
        let fallback = await first(events) { if case .fallbackUsed = $0 { true } else { false } }
        #expect(fallback == .fallbackUsed(from: .message, to: .userInfo))
    }

    @Test("no answer within the policy's timeout: .timeout, exactly at the timeout on the clock")
    func timeout() async throws {
        let link = try await TestLink(.flaky)
        let (phoneSession, _) = try #require(link.flaky)
        link.watch.registerGreeter(Counter())
        phoneSession.latency = .seconds(20)
        let phone = link.phone
        let send = Task { try await phone.send(Greet(name: "Ada"), retryPolicy: RetryPolicy(maxAttempts: 1, timeout: .seconds(10))) }
        await link.clock.waitForSleepers(count: 2)  // the timeout and the message's latency
        link.clock.advance(by: .milliseconds(9_999))
        link.clock.advance(by: .milliseconds(1))
        await #expect(throws: WatchConnectionError.timeout) { try await send.value }
        #expect(link.clock.now.offset == .seconds(10))
    }

    @Test("requests in flight share one deadline sleeper, and each still times out at its own deadline")
    func oneDeadlineSleeper() async throws {
        let (link, phoneSession, _) = try await TestLink.flakyGreeter()
        phoneSession.latency = .seconds(20)
        let phone = link.phone
        let policy = RetryPolicy(maxAttempts: 1, timeout: .seconds(10))
        let sends = (1...3).map { n in Task { try await phone.send(Greet(name: "\(n)"), retryPolicy: policy) } }
        // Three messages' latencies and one sleeper for the three timeouts (a timer each would be six).
        await link.clock.waitForSleepers(count: 4)
        #expect(link.clock.sleeperCount == 4)
        link.clock.advance(by: .seconds(10))
        for send in sends { await #expect(throws: WatchConnectionError.timeout) { try await send.value } }
        #expect(link.clock.now.offset == .seconds(10))
    }

    @Test("immediate mode, peer unreachable: notReachable at once, nothing sent")
    func immediateUnreachable() async throws {
        let link = try await TestLink(.flaky)
        try await link.makePeerUnreachable()
        await #expect(throws: WatchConnectionError.notReachable) {
            try await link.phone.send(Greet(name: "x"), delivery: .immediate)
        }
        #expect(link.flaky?.phone.history.isEmpty == true)
    }

    @Test("the same seed replays the same faults")
    func replayable() {
        func run(seed: UInt64) -> [FlakySession.Fault] {
            let session = FlakySession(seed: seed)
            session.failureProbability = 0.3
            session.replyLossProbability = 0.2
            session.activate { _ in }
            for _ in 0..<50 { session.sendMessage(["k": "v"], replyHandler: nil) { _ in } }
            return session.history
        }
        #expect(run(seed: 5) == run(seed: 5))
        #expect(run(seed: 5) != run(seed: 6))
        #expect(Set(run(seed: 5)).count == 3)
    }
}
