import Foundation
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// Timeouts and link loss on the manual clock: exactly one outcome per message, never both, never twice.
@Suite("message outcomes", .timeLimit(.minutes(3)))
struct MessageTimeoutTests {
    @Test("no reply within the timeout gives 7012, and a late reply is dropped and reported")
    func timesOut() async throws {
        let clock = ManualClock()
        let pair = try EnginePair(.inMemory, clock: clock)
        let gate = AsyncSignal()
        // Both handshakes are complete then, so no handshake timer is left on the manual clock.
        let (watch, phone) = try await pair.startLinked(watchHandler: MessageHandler(variants: [.dictionaryWithReply]) { message in
            await gate.wait(after: 0)
            return .success(message.body)
        })
        #expect(clock.sleeperCount == 0)
        let events = phone.diagnostics.subscribe()
        let sent = Task { try await phone.sendMessage(.dictionary(["slow": .bool(true)]), wantsReply: true, timeout: .seconds(10)) }
        // The only sleeper on the manual clock is the message's timeout (keep-alives are off).
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        do {
            _ = try await sent.value
            Issue.record("expected 7012")
        } catch let failure as WCFailure {
            #expect(failure.code == .messageReplyTimedOut)
        }
        let failed = try await events.first(.messageFailed)
        // The late reply arrives after the timeout: the caller hears nothing more, the sender reports the
        // drop for that message, and the link is fine.
        gate.fire()
        let dropped = try await events.first(.messageAnswerDropped)
        #expect(failed.seq != nil && dropped.seq == failed.seq, "\(failed) then \(dropped)")
        await watch.setMessageHandler(MessageHandler(variants: [.dictionaryWithReply]) { .success($0.body) })
        let again = Task { try await phone.sendMessage(.dictionary(["n": .integer(2)]), wantsReply: true) }
        #expect(try await again.value == .dictionary(["n": .integer(2)]))
        await pair.tearDown()
    }

    @Test("a link that drops during the call gives exactly one error", arguments: [false, true])
    func linkDrop(wantsReply: Bool) async throws {
        let pair = try EnginePair(.inMemory)
        let entered = AsyncSignal()
        let watch = try await pair.start(.watch)
        await watch.setMessageHandler(MessageHandler(variants: Set(MessageVariant.allCases)) { _ in
            entered.fire()
            await AsyncSignal().wait(after: 0)  // never answers
            return .success(nil)
        })
        let phone = try await pair.start(.phone)
        try await until("phone sees the watch", on: phone.stateSignal) { await phone.isReachable }
        let events = phone.diagnostics.subscribe()
        let seen = entered.generation
        let sent = Task { try await phone.sendMessage(.dictionary([:]), wantsReply: wantsReply) }
        await entered.wait(after: seen)
        pair.network.dropAllConnections()
        do {
            _ = try await sent.value
            Issue.record("expected an error")
        } catch let failure as WCFailure {
            #expect(failure.code == .deliveryFailed)
        }
        let failed = try await events.first(.messageFailed)
        #expect(failed.errorCode == .deliveryFailed)
        await pair.tearDown()
    }
}
