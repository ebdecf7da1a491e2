import Foundation
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// Every call's reply deadline on one sleeper (``MessageDeadlines``): each call still fails at its own
/// deadline, a shorter deadline added later wakes the sleeper, answered calls are not expired.
@Suite("message deadlines on one sleeper", .timeLimit(.minutes(3)))
struct MessageDeadlinesTests {
    @Test("calls with different timeouts each get 7012 at their own deadline, on one sleeper")
    func ownDeadlines() async throws {
        let clock = ManualClock()
        let pair = try EnginePair(.inMemory, clock: clock)
        let gate = AsyncSignal()
        let (_, phone) = try await pair.startLinked(watchHandler: MessageHandler(variants: [.dictionaryWithReply]) { message in
            await gate.wait(after: 0)  // answers only after the test is done
            return .success(message.body)
        })
        #expect(clock.sleeperCount == 0)

        let long = Task { try await phone.sendMessage(.dictionary(["n": .integer(1)]), wantsReply: true, timeout: .seconds(5)) }
        await clock.waitForSleepers(count: 1)
        // Added later with an earlier deadline: the one sleeper now sleeps until 2 s.
        let short = Task { try await phone.sendMessage(.dictionary(["n": .integer(2)]), wantsReply: true, timeout: .seconds(2)) }
        try await until("both calls in flight", on: phone.messageSignal) { await phone.status().messagesInFlight == 2 }
        await clock.waitForSleepers(count: 1, until: clock.now.advanced(by: .seconds(2)))
        #expect(clock.sleeperCount == 1)

        clock.advance(by: .seconds(2))
        await #expect(throws: WCFailure.self) { try await short.value }
        #expect(await Self.code(of: short) == .messageReplyTimedOut)
        #expect(await phone.status().messagesInFlight == 1)

        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(3))
        #expect(await Self.code(of: long) == .messageReplyTimedOut)
        try await until("no call left", on: phone.messageSignal) { await phone.status().messagesInFlight == 0 }
        // Nothing is left to expire: the sleeper waits for the next call, not on the clock.
        try await until("no sleeper left", on: phone.messageSignal) { clock.sleeperCount == 0 }
        gate.fire()
        await pair.tearDown()
    }

    @Test("an answered call is not expired at its deadline; the next call's deadline still holds")
    func answeredNotExpired() async throws {
        let clock = ManualClock()
        let pair = try EnginePair(.inMemory, clock: clock)
        let answerSecond = AsyncSignal()
        let (_, phone) = try await pair.startLinked(watchHandler: MessageHandler(variants: [.dictionaryWithReply]) { message in
            if message.body == .dictionary(["n": .integer(2)]) { await answerSecond.wait(after: 0) }
            return .success(message.body)
        })

        let first = try await phone.sendMessage(.dictionary(["n": .integer(1)]), wantsReply: true, timeout: .seconds(4))
        #expect(first == .dictionary(["n": .integer(1)]))
        let second = Task { try await phone.sendMessage(.dictionary(["n": .integer(2)]), wantsReply: true, timeout: .seconds(10)) }
        try await until("second call in flight", on: phone.messageSignal) { await phone.status().messagesInFlight == 1 }
        await clock.waitForSleepers(count: 1)
        // The first call's deadline passes: nothing fails, the second call still waits.
        clock.advance(by: .seconds(4))
        await clock.waitForSleepers(count: 1)
        #expect(await phone.status().messagesInFlight == 1)
        answerSecond.fire()
        #expect(try await second.value == .dictionary(["n": .integer(2)]))
        await pair.tearDown()
    }

    private static func code(of task: Task<MessageBody?, any Error>) async -> WCErrorCode? {
        do {
            _ = try await task.value
            return nil
        } catch let failure as WCFailure {
            return failure.code
        } catch {
            return nil
        }
    }
}
