import Foundation
import Testing
@testable import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// Transfer ids the store assigns grow with seqs, so the outbox's unique index on `transfer_id` grows at its
/// end (BENCHMARKS.md, "Cost growth"); the engine's `transferUserInfo` uses them; stores holding random ids
/// from before keep working.
@Suite("Store: outbox transfer ids")
struct OutboxTransferIdTests {
    typealias Support = StoreTestSupport

    @Test("ids assigned by the store grow with seqs, also for concurrent callers sharing group commits")
    func idsGrowWithSeqs() async throws {
        try await Support.withStore { store, _ throws in
            let transfers = try await withThrowingTaskGroup(of: OutboxTransfer.self) { group in
                for index in 0..<300 {
                    group.addTask { try await store.enqueue(payload: EncodedDictionary(Support.payload(index))) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let bySeq = transfers.sorted { $0.seq < $1.seq }
            #expect(bySeq.map(\.seq) == Array(1...300))
            TransferIdGeneratorTests.expectIncreasing(bySeq.map(\.transferId))
            #expect(try await store.outstanding(after: 0, limit: 400) == bySeq)
            #expect(store.statistics.commits < 300, "the callers shared group commits")
        }
    }

    @Test("the engine's transferUserInfo queues time-ordered ids (version 7)")
    func engineUsesOrderedIds() async throws {
        let pair = try EnginePair(.inMemory)
        let phone = try await pair.start(.phone)
        var ids: [UUID] = []
        for n in 0..<50 { ids.append(try await phone.transferUserInfo(["n": .integer(Int64(n))]).transferId) }
        TransferIdGeneratorTests.expectIncreasing(ids)
        #expect(ids.allSatisfy { $0.uuid.6 >> 4 == 7 })
        #expect(try await phone.outstandingUserInfoTransfers().map(\.transferId) == ids)
        await pair.tearDown()
    }

    @Test("a store holding random ids from before takes ordered ids after them: paging, cancel and acks unchanged")
    func randomIdsFromBefore() async throws {
        try await Support.withStore { store, configuration throws in
            var old: [UUID] = []
            for index in 0..<20 { old.append(try await store.enqueue(transferId: UUID(), payload: Support.payload(index)).transferId) }
            try await store.close()
            try await Support.reopen(configuration) { reopened throws in
                var new: [UUID] = []
                for index in 20..<40 {
                    new.append(try await reopened.enqueue(payload: EncodedDictionary(Support.payload(index))).transferId)
                }
                TransferIdGeneratorTests.expectIncreasing(new)
                #expect(try await reopened.outstanding(after: 0, limit: 50).map(\.transferId) == old + new)
                #expect(try await reopened.cancel(transferId: old[3]))
                #expect(try await reopened.cancel(transferId: new[3]))
                #expect(try await reopened.acknowledge(upTo: 30).map(\.transferId) == Array(old.prefix(3) + old[4...] + new.prefix(3) + new[4..<10]))
                #expect(try await reopened.outstandingCount() == 10)
            }
        }
    }
}
