import Foundation
import Testing
@testable import WatchPairCore
import WatchPairWire

@Suite("Store: userInfo outbox")
struct PairStoreOutboxTests {
    typealias Support = StoreTestSupport

    @Test("enqueue assigns increasing seqs; outstanding pages in seq order")
    func enqueueAndPage() async throws {
        try await Support.withStore { store, _ throws in
            var enqueued: [OutboxTransfer] = []
            for index in 0..<7 { enqueued.append(try await store.enqueue(transferId: UUID(), payload: Support.payload(index))) }
            #expect(enqueued.map(\.seq) == Array(1...7))
            #expect(try await store.outstandingCount() == 7)
            #expect(try await store.outstanding(after: 0, limit: 3) == Array(enqueued[0..<3]))
            #expect(try await store.outstanding(after: 3, limit: 3) == Array(enqueued[3..<6]))
            #expect(try await store.outstanding(after: 6, limit: 3) == [enqueued[6]])
            #expect(try await store.outstanding(after: 7, limit: 3) == [])
            #expect(try await store.outstanding(after: 0, limit: 0) == [])
            #expect(store.statistics.enqueued == 7)
        }
    }

    @Test("every property-list type round-trips through the outbox")
    func payloadRoundTrip() async throws {
        try await Support.withStore { store, _ throws in
            let transfer = try await store.enqueue(transferId: UUID(), payload: Support.richPayload)
            #expect(try await store.outstanding(after: 0, limit: 1) == [transfer])
            #expect(transfer.payload == Support.richPayload)
        }
    }

    @Test("cancel removes only outstanding transfers, and seqs are never reused")
    func cancel() async throws {
        try await Support.withStore { store, _ throws in
            let first = try await store.enqueue(transferId: UUID(), payload: [:])
            let second = try await store.enqueue(transferId: UUID(), payload: [:])
            let third = try await store.enqueue(transferId: UUID(), payload: [:])
            #expect(try await store.cancel(transferId: third.transferId))
            #expect(try await store.cancel(transferId: third.transferId) == false)
            #expect(try await store.cancel(transferId: UUID()) == false)
            _ = try await store.acknowledge(upTo: first.seq)
            #expect(try await store.cancel(transferId: first.transferId) == false, "finished is not outstanding")
            let fourth = try await store.enqueue(transferId: UUID(), payload: [:])
            #expect(fourth.seq == 4)
            #expect(try await store.outstanding(after: 0, limit: 10).map(\.seq) == [second.seq, fourth.seq])
        }
    }

    @Test("seqs continue after reopen, even when the outbox was emptied")
    func seqAcrossReopen() async throws {
        try await Support.withStore { store, configuration throws in
            var ids: [UUID] = []
            for _ in 0..<3 { ids.append(try await store.enqueue(transferId: UUID(), payload: [:]).transferId) }
            _ = try await store.acknowledge(upTo: 3)
            try await store.markFinishedReported(ids)
            #expect(try await store.unreportedFinished(limit: 10) == [])
            try await store.close()
            try await Support.reopen(configuration) { reopened throws in
                #expect(try await reopened.enqueue(transferId: UUID(), payload: [:]).seq == 4)
            }
        }
    }

    @Test("outboxLimit: one more throws outboxFull (7015) and stores nothing")
    func outboxLimit() async throws {
        try await Support.withStore(outboxLimit: 3) { store, _ throws in
            for _ in 0..<3 { _ = try await store.enqueue(transferId: UUID(), payload: [:]) }
            let rejectedId = UUID()
            let error = await Support.expectStoreError { _ = try await store.enqueue(transferId: rejectedId, payload: ["x": .bool(true)]) }
            #expect(error?.kind == .outboxFull)
            #expect(error?.wcCode == .insufficientSpace)
            #expect(try await store.outstandingCount() == 3)
            #expect(try await store.outstanding(after: 0, limit: 10).contains { $0.transferId == rejectedId } == false)
            #expect(store.statistics.enqueued == 3)
            _ = try await store.acknowledge(upTo: 1)
            #expect(try await store.enqueue(transferId: rejectedId, payload: [:]).seq == 4, "a rejected call uses no seq")
        }
    }

    @Test("SQLITE_FULL is .diskFull (7015), the batch is rolled back, and the store stays usable")
    func diskFull() async throws {
        try await Support.withStore { store, _ in
            _ = try await store.enqueue(transferId: UUID(), payload: [:])
            let pageCount = try await store.database.writerPragma("page_count")
            let pages = try #require(pageCount.flatMap { Int($0) })
            // Cap the file a few pages above its current size: the same SQLITE_FULL a full disk gives.
            _ = try await store.database.writerPragma("max_page_count = \(pages + 2)")
            let big: PlistDictionary = ["blob": .data(Data(repeating: 1, count: 64 * 1024))]
            let error = await Support.expectStoreError { _ = try await store.enqueue(transferId: UUID(), payload: big) }
            #expect(error?.kind == .diskFull)
            #expect(error?.wcCode == .insufficientSpace)
            #expect(error.map { $0.sqliteCode.map { $0 & 0xFF } } == 13)
            #expect(try await store.outstanding(after: 0, limit: 10).map(\.seq) == [1])
            _ = try await store.database.writerPragma("max_page_count = 1073741823")
            #expect(try await store.enqueue(transferId: UUID(), payload: big).seq == 2, "the failed call used no seq")
        }
    }

    @Test("a transferId already in the outbox is refused without storing")
    func duplicateTransferId() async throws {
        try await Support.withStore { store, _ throws in
            let first = try await store.enqueue(transferId: UUID(), payload: [:])
            let error = await Support.expectStoreError { _ = try await store.enqueue(transferId: first.transferId, payload: [:]) }
            #expect(error?.kind == .ioFailure)
            #expect(try await store.outstandingCount() == 1)
            #expect(try await store.enqueue(transferId: UUID(), payload: [:]).seq == 2)
        }
    }

    @Test("a payload too deep to be read back is refused, so it cannot block the outbox")
    func tooDeep() async throws {
        try await Support.withStore { store, _ throws in
            var value = PlistValue.integer(1)
            for _ in 0..<PlistCodec.maxNestingDepth { value = .array([value]) }
            let error = await Support.expectStoreError { _ = try await store.enqueue(transferId: UUID(), payload: ["deep": value]) }
            #expect(error?.kind == .ioFailure)
            #expect(try await store.outstandingCount() == 0)
            let contextError = await Support.expectStoreError { _ = try await store.contexts.setSentContext(["deep": value]) }
            #expect(contextError?.kind == .ioFailure)
            #expect(try await store.contexts.sentContext() == nil)
        }
    }

    @Test("acknowledge is cumulative and idempotent, in seq order")
    func acknowledge() async throws {
        try await Support.withStore { store, _ throws in
            var transfers: [OutboxTransfer] = []
            for index in 0..<5 { transfers.append(try await store.enqueue(transferId: UUID(), payload: Support.payload(index))) }
            #expect(try await store.cancel(transferId: transfers[2].transferId))
            #expect(try await store.acknowledge(upTo: 2) == transfers[0..<2].map(\.finished))
            #expect(try await store.acknowledge(upTo: 2) == [])
            #expect(try await store.acknowledge(upTo: 1) == [])
            #expect(try await store.acknowledge(upTo: 4) == [transfers[3].finished], "cancelled seq 3 is not finished")
            #expect(try await store.outstanding(after: 0, limit: 10) == [transfers[4]])
            #expect(try await store.acknowledge(upTo: .max) == [transfers[4].finished])
            #expect(try await store.outstandingCount() == 0)
            #expect(try await store.unreportedFinished(limit: 10) == [transfers[0], transfers[1], transfers[3], transfers[4]])
        }
    }

    @Test("unreported finished transfers survive reopen until marked reported")
    func unreportedSurvivesReopen() async throws {
        try await Support.withStore { store, configuration throws in
            var transfers: [OutboxTransfer] = []
            for index in 0..<3 { transfers.append(try await store.enqueue(transferId: UUID(), payload: Support.payload(index))) }
            _ = try await store.acknowledge(upTo: 2)
            try await store.close()
            try await Support.reopen(configuration) { reopened throws in
                #expect(try await reopened.unreportedFinished(limit: 10) == Array(transfers[0..<2]))
                #expect(try await reopened.unreportedFinished(limit: 1) == [transfers[0]])
                try await reopened.markFinishedReported([transfers[0].transferId, transfers[2].transferId])
                #expect(try await reopened.outstanding(after: 0, limit: 10) == [transfers[2]], "outstanding ids are ignored")
            }
            try await Support.reopen(configuration) { reopened throws in
                #expect(try await reopened.unreportedFinished(limit: 10) == [transfers[1]])
            }
        }
    }
}
