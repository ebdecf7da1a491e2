import Foundation
import Testing
import WatchPairWire

@testable import WatchConnectivity
import WatchConnectivityTesting

/// Complication transfers (docs/Complications.md) through Apple's API (`transferCurrentComplicationUserInfo`,
/// `remainingComplicationUserInfoTransfers`, `isCurrentComplicationInfo`).
@Suite("WCSession complication transfers", .timeLimit(.minutes(3)))
struct WCSessionComplicationTests {
    @Test("refused at once while the complication is disabled (7001) and on the watch (7008); enabled, it reaches didReceiveUserInfo in order with userInfo",
          arguments: WCSessionTestMode.allCases)
    func refusalsAndDelivery(_ mode: WCSessionTestMode) async throws {
        let pair = try WCSessionPair(mode)
        let phoneDelegate = FullDelegate(), watchDelegate = FullDelegate(recordsStateChanges: false)
        await pair.activate(phoneDelegate, watchDelegate)
        #expect(pair.phone.remainingComplicationUserInfoTransfers == 0, "0 while not enabled, as Apple reports it")

        let refused = pair.phone.transferCurrentComplicationUserInfo(["n": 0])
        #expect(!refused.isTransferring)
        #expect(await phoneDelegate.next() == .finished(["n": .integer(0)], errorCode: 7001))
        let onWatch = pair.watch.transferCurrentComplicationUserInfo(["n": 0])
        #expect(!onWatch.isTransferring)
        #expect(await watchDelegate.next() == .finished(["n": .integer(0)], errorCode: 7008))
        #expect(pair.phone.outstandingUserInfoTransfers.isEmpty, "nothing queued")

        try await enable(pair, phoneDelegate)
        let tooBig = pair.phone.transferCurrentComplicationUserInfo(["blob": Data(count: 70_000)])
        #expect(!tooBig.isTransferring, "the size check of transferUserInfo")
        #expect(await phoneDelegate.next() == .finished(["blob": .data(Data(count: 70_000))], errorCode: 7009))
        #expect(pair.phone.remainingComplicationUserInfoTransfers == 50, "a refusal uses none of the budget")

        let first = pair.phone.transferCurrentComplicationUserInfo(["n": 1])
        pair.phone.transferUserInfo(["n": 2])
        pair.phone.transferCurrentComplicationUserInfo(["n": 3])
        #expect(first.isCurrentComplicationInfo)
        #expect(pair.phone.remainingComplicationUserInfoTransfers == 48)
        let arrived = [await watchDelegate.nextContent(), await watchDelegate.nextContent(), await watchDelegate.nextContent()]
        #expect(arrived == [.userInfo(["n": .integer(1)]), .userInfo(["n": .integer(2)]), .userInfo(["n": .integer(3)])])
        await pair.shutdown()
    }

    @Test("50 a day go flagged and are outstanding, the 51st goes as plain userInfo, the next day on the manual clock resets")
    func dailyBudget() async throws {
        let pair = try WCSessionPair(.inMemory)
        let phoneDelegate = FullDelegate(), watchDelegate = FullDelegate(recordsStateChanges: false)
        await pair.activate(phoneDelegate, watchDelegate)
        try await enable(pair, phoneDelegate)
        // The watch's device off: everything stays outstanding at the phone, where the test reads it.
        await pair.watch.shutdown()
        #expect(await phoneDelegate.next() == .reachability(false))

        let transfers = (1...51).map { pair.phone.transferCurrentComplicationUserInfo(["n": $0]) }
        #expect(transfers.map(\.isCurrentComplicationInfo) == Array(repeating: true, count: 50) + [false])
        #expect(transfers.allSatisfy { $0.isTransferring })
        #expect(pair.phone.remainingComplicationUserInfoTransfers == 0)
        let outstanding = pair.phone.outstandingUserInfoTransfers
        #expect(outstanding.count == 51)
        #expect(outstanding.map(\.isCurrentComplicationInfo) == transfers.map(\.isCurrentComplicationInfo))
        #expect(pair.phone.transferCurrentComplicationUserInfo(["n": 52]).isTransferring, "at 0 still accepted")

        let clock = try #require(pair.clock)
        clock.advance(by: .seconds(86_400))
        #expect(pair.phone.remainingComplicationUserInfoTransfers == 50, "a UTC day later")
        #expect(pair.phone.transferCurrentComplicationUserInfo(["n": 53]).isCurrentComplicationInfo)
        #expect(pair.phone.remainingComplicationUserInfoTransfers == 49)
        await pair.shutdown()
    }

    /// Enables the watch app's complication and waits until the phone knows.
    private func enable(_ pair: WCSessionPair, _ phoneDelegate: FullDelegate) async throws {
        try await pair.setComplicationEnabled(true)
        #expect(await phoneDelegate.next() == .watchStateChanged(installed: true))
        #expect(pair.phone.isComplicationEnabled)
    }
}
