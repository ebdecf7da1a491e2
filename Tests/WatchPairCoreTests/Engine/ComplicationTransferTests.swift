import Foundation
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// Complication transfers (docs/Complications.md) on the engine: refusals, the flag end to end, the budget across a
/// restart and a day boundary on a manual clock.
@Suite("complication transfers", .timeLimit(.minutes(3)))
struct ComplicationTransferTests {
    @Test("refused on the watch (7008) and while disabled (7001), nothing queued; enabled, they arrive flagged in order with userInfo",
          arguments: TransportKind.allCases)
    func flaggedInOrder(kind: TransportKind) async throws {
        let pair = try EnginePair(kind, configure: { $0.complicationDailyBudget = 2 })
        let phone = try await pair.start(.phone)
        let watch = try await pair.start(.watch)
        await expectFailure(.invalidParameter) { _ = try await watch.transferCurrentComplicationUserInfo(["n": .integer(0)]) }
        await expectFailure(.genericError) { _ = try await phone.transferCurrentComplicationUserInfo(["n": .integer(0)]) }
        #expect(await phone.remainingComplicationUserInfoTransfers() == 0, "0 while the complication is disabled, as Apple reports it")
        #expect(try await phone.outstandingUserInfoTransfers().isEmpty, "nothing queued")

        try await watch.setComplicationEnabled(true)
        try await until("the phone sees the complication", on: phone.stateSignal) { await phone.peerWatchState.complicationEnabled }
        #expect(await phone.remainingComplicationUserInfoTransfers() == 2)
        let first = try await phone.transferCurrentComplicationUserInfo(["n": .integer(1)])
        _ = try await phone.transferUserInfo(["n": .integer(2)])
        let second = try await phone.transferCurrentComplicationUserInfo(["n": .integer(3)])
        #expect(await phone.status().complicationTransfersRemaining == 0)
        let third = try await phone.transferCurrentComplicationUserInfo(["n": .integer(4)])
        #expect([first, second, third].map(\.isCurrentComplicationInfo) == [true, true, false], "the third goes as plain userInfo")

        try await until("the watch holds all four", on: watch.appSignal) { ((try? await watch.pendingUserInfo()) ?? []).count == 4 }
        let received = try await watch.pendingUserInfo()
        #expect(received.map(\.payload) == (1...4).map { ["n": .integer(Int64($0))] }, "in order with the plain userInfo")
        #expect(received.map(\.isCurrentComplicationInfo) == [true, false, true, false])
        await pair.tearDown()
    }

    @Test("a restart keeps the day's count; the UTC midnight of the pinned wall time, stepped to, resets it")
    func budgetAcrossRestartAndDays() async throws {
        let clock = ManualClock()
        let pair = try EnginePair(.inMemory, clock: clock, configure: { $0.complicationDailyBudget = 3 })
        let first = try await pair.start(.phone)
        let watch = try await pair.start(.watch)
        try await watch.setComplicationEnabled(true)
        try await until("the phone sees the complication", on: first.stateSignal) { await first.peerWatchState.complicationEnabled }
        for _ in 1...2 { _ = try await first.transferCurrentComplicationUserInfo(["k": .string("v")]) }
        #expect(await first.remainingComplicationUserInfoTransfers() == 1)
        await pair.stop(.phone)
        let phone = try await pair.start(.phone)
        try await until("the phone sees the complication", on: phone.stateSignal) { await phone.peerWatchState.complicationEnabled }
        #expect(await phone.remainingComplicationUserInfoTransfers() == 1, "the count survives a restart")
        #expect(try await phone.transferCurrentComplicationUserInfo([:]).isCurrentComplicationInfo)
        #expect(try await !phone.transferCurrentComplicationUserInfo([:]).isCurrentComplicationInfo)
        // The pair's wall time starts at noon UTC (ManualClock.wallClockOrigin), whatever the real time is.
        clock.advance(by: .seconds(12 * 3_600 - 1))
        #expect(await phone.remainingComplicationUserInfoTransfers() == 0, "23:59:59 is still the same day")
        clock.advance(by: .seconds(1))
        #expect(await phone.remainingComplicationUserInfoTransfers() == 3, "at midnight UTC the budget is whole again")
        #expect(try await phone.transferCurrentComplicationUserInfo([:]).isCurrentComplicationInfo)
        await pair.tearDown()
    }
}
