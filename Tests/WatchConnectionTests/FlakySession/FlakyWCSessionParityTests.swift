import Foundation
import Testing
import WatchConnection
import WatchConnectionTesting
import WatchPairTesting

/// FlakyWCSession's knobs on FlakySession, with its meanings (ts95/WatchConnectivitySwift 2efd9a5).
@Suite("FlakySession: FlakyWCSession's knobs", .timeLimit(.minutes(3)))
struct FlakyWCSessionParityTests {
    static func linked(seed: UInt64 = 3) -> (FlakySession, FlakySession, SessionRecorder, ManualClock) {
        let clock = ManualClock()
        let (phone, watch) = FlakySession.pair(seed: seed, clock: clock)
        _ = SessionRecorder(phone)
        return (phone, watch, SessionRecorder(watch), clock)
    }

    @Test("failureProbability 1: every message fails before delivery (7014), counted as failed")
    func failureProbability() {
        let (phone, _, watch, _) = Self.linked()
        phone.failureProbability = 1
        let outcomes = Outcomes()
        for n in 0..<4 { outcomes.send(["n": "\(n)"], on: phone) }
        #expect(outcomes.errorCodes == [7014, 7014, 7014, 7014])
        #expect(watch.messages.isEmpty)
        #expect(phone.totalAttempts == 4 && phone.failedAttempts == 4 && phone.successfulAttempts == 0)
        #expect(phone.successRate == 0)
    }

    @Test("FlakyWCSession's defaults: its three errors, drawn from the seed (the same seed, the same codes)")
    func defaultsAndPossibleErrors() {
        func codes(seed: UInt64) -> [Int] {
            let session = FlakySession.withFlakyWCSessionDefaults(seed: seed)
            #expect(session.failureProbability == 0.3 && session.phantomReachabilityProbability == 0.1 && session.delayProbability == 0.2)
            session.phantomReachabilityProbability = 0
            session.failureProbability = 1
            _ = SessionRecorder(session)
            let outcomes = Outcomes()
            for n in 0..<30 { outcomes.send(["n": "\(n)"], on: session) }
            return outcomes.errorCodes
        }
        let first = codes(seed: 5)
        #expect(first.count == 30)
        #expect(Set(first) == [7007, 7014, 7012])
        #expect(codes(seed: 5) == first)
    }

    @Test("phantomReachabilityProbability 1: isReachable stays true, every message fails 7007 unseen by the peer")
    func phantomAlways() {
        let (phone, _, watch, _) = Self.linked()
        phone.phantomReachabilityProbability = 1
        phone.setReachable(false)
        #expect(phone.isReachable)
        let outcomes = Outcomes()
        outcomes.send(["n": "1"], on: phone)
        #expect(outcomes.all == [.error(7007)])
        #expect(watch.messages.isEmpty)
        #expect(phone.quirkStatuses.map(\.quirk) == [.phantomReachability], "the knob is the quirk's probability")
        phone.phantomReachabilityProbability = 0
        #expect(phone.quirkStatuses.isEmpty)
        #expect(!phone.isReachable, "cleared: the link shows through again")
    }

    @Test("phantomReachabilityProbability 0.5: some messages fail 7007, seeded, the rest are answered")
    func phantomSometimes() {
        func run() -> [Outcomes.Outcome] {
            let (phone, _, _, _) = Self.linked(seed: 9)
            phone.phantomReachabilityProbability = 0.5
            let outcomes = Outcomes()
            for n in 0..<20 { outcomes.send(["n": "\(n)"], on: phone) }
            #expect(phone.injections(of: .phantomReachability) == outcomes.errorCodes.count)
            return outcomes.all
        }
        let first = run()
        let failed = first.filter { $0 == .error(7007) }.count
        #expect(failed > 0 && failed < 20)
        #expect(run() == first)
    }

    @Test("delayProbability 1: each message reaches the peer after a delay drawn from delayRange, on the clock")
    func delayProbability() async {
        let (phone, _, watch, clock) = Self.linked()
        phone.delayProbability = 1
        phone.delayRange = .seconds(2) ... .seconds(2)
        let outcomes = Outcomes()
        outcomes.send(["n": "1"], on: phone)
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(1999))
        #expect(watch.messages.isEmpty)
        clock.advance(by: .milliseconds(1))
        await clock.waitForSleepers(count: 0)
        while outcomes.all.isEmpty { await Task.yield() }
        #expect(watch.messages == [["n": "1"]])
        #expect(outcomes.all == [.reply(["answer": "1"])])
    }

    @Test("isStuck: activation never completes, messages are never answered, context throws 7014, userInfo waits")
    func stuck() throws {
        let (phone, _, watch, _) = Self.linked()
        phone.simulateStuck()
        #expect(phone.isStuck)
        let outcomes = Outcomes()
        outcomes.send(["n": "1"], on: phone)
        #expect(outcomes.all.isEmpty && watch.messages.isEmpty)
        #expect(phone.history.last == .stuck)
        #expect(phone.totalAttempts == 1 && phone.failedAttempts == 0 && phone.successfulAttempts == 0)
        #expect(throws: NSError.self) { try phone.updateApplicationContext(["k": "v"]) }
        try phone.transferUserInfo(["u": "1"])
        #expect(phone.outstandingUserInfoTransfers == [["u": "1"]])
        #expect(watch.userInfos.isEmpty)
        let fresh = FlakySession()
        fresh.isStuck = true
        let recorder = SessionRecorder(fresh)
        #expect(recorder.all.isEmpty && fresh.activationState == .notActivated)
        phone.simulateRecovery()
        #expect(watch.userInfos == [["u": "1"]])
        #expect(phone.outstandingUserInfoTransfers.isEmpty)
    }

    @Test("reset zeroes the statistics, ends the stuck state and forgets the contexts")
    func reset() throws {
        let (phone, watchSession, _, _) = Self.linked()
        try phone.updateApplicationContext(["k": "v"])
        #expect(phone.applicationContext == ["k": "v"] && watchSession.receivedApplicationContext == ["k": "v"])
        Outcomes().send(["n": "1"], on: phone)
        phone.simulateStuck()
        phone.reset()
        #expect(phone.totalAttempts == 0 && phone.successRate == 1 && !phone.isStuck && phone.applicationContext.isEmpty)
    }

    @Test("isReachable is settable, as FlakyWCSession's: it is setReachable")
    func settableReachability() {
        let (phone, watchSession, _, _) = Self.linked()
        phone.isReachable = false
        #expect(!phone.isReachable && !watchSession.isReachable)
    }
}
