import Testing
import WatchConnectivity
import WatchConnectivityTesting
import WatchPairTesting

/// `WCSessionPair(.inMemory, clock: .automatic)`: time moves to each deadline while the test awaits
/// through the kit, and only then.
@Suite("the self-driving clock", .timeLimit(.minutes(3)))
struct SelfDrivingClockTests {
    @Test("a message nobody answers fails with 7012 exactly at the reply timeout", arguments: [3, 10])
    func jumpsToTheReplyDeadline(seconds: Int) async throws {
        let pair = try WCSessionPair(.inMemory, clock: .automatic, replyTimeout: .seconds(seconds))
        let clock = try #require(pair.clock)
        try await pair.activate()
        let sent = clock.now
        let error = await #expect(throws: WCError.self) { try await pair.phone.sendMessageAwaitingReply(["n": 1]) }
        #expect(error?.code == .messageReplyTimedOut)
        #expect(clock.now == sent.advanced(by: .seconds(seconds)))
        await pair.shutdown()
    }

    @Test("between the test's waits time stands still; a manual pair's clock never moves by itself")
    func stillBetweenWaits() async throws {
        for mode in WCSessionPair.ClockMode.allCases {
            let pair = try WCSessionPair(.inMemory, clock: mode)
            let clock = try #require(pair.clock)
            let (_, watch) = try await pair.activate()
            pair.phone.sendMessage(["n": 1], replyHandler: { _ in }, errorHandler: { _ in })
            let message = try await watch.first(\.message)  // the phone's reply timer runs from here
            let now = clock.now
            for _ in 0..<100 { await Task.yield() }
            #expect(clock.now == now, "\(mode)")
            message.reply(["ok": true])
            await pair.shutdown()
        }
    }
}
