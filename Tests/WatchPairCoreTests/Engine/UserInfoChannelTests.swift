import Foundation
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// The userInfo channel: durable FIFO, exactly once, didFinish, cancel — over both transports.
@Suite("userInfo channel", .timeLimit(.minutes(3)))
struct UserInfoChannelTests {
    @Test("transfers queued while the watch is away arrive in order when it starts", arguments: TransportKind.allCases)
    func queuedThenDelivered(kind: TransportKind) async throws {
        let pair = try EnginePair(kind)
        let phone = try await pair.start(.phone)
        var accepted: [UUID] = []
        for n in 0..<50 {
            accepted.append(try await phone.transferUserInfo(["n": .integer(Int64(n))]).transferId)
        }
        #expect(try await phone.outstandingUserInfoTransfers().map(\.transferId) == accepted)

        let watch = try await pair.start(.watch)
        try await until("all 50 received", on: watch.appSignal) {
            ((try? await watch.pendingUserInfo(limit: 100)) ?? []).count == 50
        }
        let received = try await watch.pendingUserInfo(limit: 100)
        #expect(received.map(\.transferId) == accepted)
        #expect(received.map { $0.payload["n"] } == (0..<50).map { PlistValue.integer(Int64($0)) })

        // The sender is told each one finished, and nothing stays outstanding.
        try await until("all finished", on: phone.appSignal) {
            ((try? await phone.pendingFinished(limit: 100)) ?? []).count == 50
        }
        #expect(try await phone.outstandingUserInfoTransfers().isEmpty)
        await pair.tearDown()
    }

    @Test("after many concurrent transfers finish, status counts none outstanding", arguments: TransportKind.allCases)
    func outstandingCountAfterConcurrentTransfers(kind: TransportKind) async throws {
        let pair = try EnginePair(kind)
        let phone = try await pair.start(.phone)
        let watch = try await pair.start(.watch)
        let total = 512
        // Many callers at once, so acknowledgements overlap callers still resuming from their commit (the
        // process tests and wcbench caught an engine-side counter drifting there; the count is now the store's).
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<total {
                group.addTask { _ = try await phone.transferUserInfo(["n": .integer(Int64(n))]) }
            }
            try await group.waitForAll()
        }
        try await until("all finished", on: phone.appSignal) {
            ((try? await phone.pendingFinished(limit: total + 1)) ?? []).count == total
        }
        #expect(try await phone.outstandingUserInfoTransfers().isEmpty)
        #expect(await phone.status().outstandingTransfers == 0)
        #expect(((try? await watch.pendingUserInfo(limit: total + 1)) ?? []).count == total)
        await pair.tearDown()
    }

    @Test("didFinish reaches a sender that restarted before the acknowledgement")
    func didFinishAfterSenderRestart() async throws {
        let pair = try EnginePair(.unixSocket)
        let phone = try await pair.start(.phone)
        let transfer = try await phone.transferUserInfo(["k": .string("v")])
        await pair.stop(.phone)

        let watch = try await pair.start(.watch)
        let restarted = try await pair.start(.phone)
        try await until("finished after restart", on: restarted.appSignal) {
            ((try? await restarted.pendingFinished()) ?? []).map(\.transferId) == [transfer.transferId]
        }
        // Acknowledged by the app: not reported again.
        try await restarted.acknowledgeFinished([transfer.transferId])
        #expect(try await restarted.pendingFinished().isEmpty)
        #expect(try await watch.pendingUserInfo().map(\.transferId) == [transfer.transferId])
        await pair.tearDown()
    }

    @Test("what the app acknowledged is not delivered again; the rest is, after a restart")
    func appAcknowledgement() async throws {
        let pair = try EnginePair(.inMemory)
        let watch = try await pair.start(.watch)
        let phone = try await pair.start(.phone)
        for n in 0..<4 { _ = try await phone.transferUserInfo(["n": .integer(Int64(n))]) }
        try await until("4 received", on: watch.appSignal) { ((try? await watch.pendingUserInfo()) ?? []).count == 4 }
        let first = try await watch.pendingUserInfo()
        try await watch.acknowledgeUserInfo(upTo: first[1].deliveryId)
        await pair.stop(.watch)
        let relaunched = try await pair.start(.watch)
        #expect(try await relaunched.pendingUserInfo().map { $0.payload["n"] } == [.integer(2), .integer(3)])
        await pair.tearDown()
    }

    @Test("a cancelled transfer is not delivered")
    func cancel() async throws {
        let pair = try EnginePair(.inMemory)
        let phone = try await pair.start(.phone)
        let keep = try await phone.transferUserInfo(["keep": .bool(true)])
        let drop = try await phone.transferUserInfo(["keep": .bool(false)])
        #expect(try await phone.cancelUserInfo(drop.transferId))
        #expect(try await phone.cancelUserInfo(drop.transferId) == false)
        #expect(try await phone.outstandingUserInfoTransfers().map(\.transferId) == [keep.transferId])
        let watch = try await pair.start(.watch)
        try await until("finished", on: phone.appSignal) { await phone.status().outstandingTransfers == 0 }
        #expect(try await watch.pendingUserInfo().map(\.transferId) == [keep.transferId])
        await pair.tearDown()
    }

    @Test("oversized userInfo fails with 7009 and nothing is queued")
    func tooLarge() async throws {
        let pair = try EnginePair(.inMemory)
        let phone = try await pair.start(.phone)
        do {
            _ = try await phone.transferUserInfo(["blob": .data(Data(count: 70_000))])
            Issue.record("expected 7009")
        } catch {
            #expect(error.code == .payloadTooLarge)
        }
        #expect(try await phone.outstandingUserInfoTransfers().isEmpty)
        await pair.tearDown()
    }

    @Test("a full outbox refuses with 7015 and keeps what it had")
    func outboxFull() async throws {
        let pair = try EnginePair(.inMemory)
        let phone = try await pair.start(.phone, storeLimits: (outbox: 3, inbox: 10))
        for n in 0..<3 { _ = try await phone.transferUserInfo(["n": .integer(Int64(n))]) }
        do {
            _ = try await phone.transferUserInfo(["n": .integer(3)])
            Issue.record("expected 7015")
        } catch {
            #expect(error.code == .insufficientSpace)
        }
        #expect(try await phone.outstandingUserInfoTransfers().count == 3)
        await pair.tearDown()
    }

    @Test("one at a time, the pump takes each queued transfer from the outbox's tail, and the receiver never reads its empty outbox")
    func pumpTakesQueuedTransfersFromMemory() async throws {
        let pair = try EnginePair(.inMemory)
        let phone = try await pair.start(.phone)
        let watch = try await pair.start(.watch)
        try await until("linked", on: phone.stateSignal) { await phone.status().link == "connected" }
        let phoneStore = try #require(pair.store(.phone))
        let watchStore = try #require(pair.store(.watch))
        let before = (phone: phoneStore.statistics.reads, watch: watchStore.statistics.reads)
        let count = 20
        for n in 0..<count {
            _ = try await phone.transferUserInfo(["n": .integer(Int64(n))])
            // Each acknowledgement wakes the pump; with nothing queued after it, it must not read.
            try await until("transfer \(n) acknowledged", on: phone.contentSignal) { await phone.status().outstandingTransfers == 0 }
        }
        let phoneReads = phoneStore.statistics.reads - before.phone
        let watchReads = watchStore.statistics.reads - before.watch
        #expect(phoneReads <= 2, "\(phoneReads) reads for \(count) transfers: each comes from memory")
        #expect(watchReads <= 2, "\(watchReads) reads on a side that sends nothing")
        #expect(await watch.status().inboxPending == count)
        await pair.tearDown()
    }
}
