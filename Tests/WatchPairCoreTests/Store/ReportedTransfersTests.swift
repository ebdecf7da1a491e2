import Foundation
import Testing
@testable import WatchPairCore

/// Forgetting what the app was told had finished (`ack`'s `finished`): userInfo and file transfers in
/// one relaxed transaction, and the writer back at `synchronous=FULL` afterwards.
@Suite("Store: reported transfers")
struct ReportedTransfersTests {
    typealias Support = StoreTestSupport
    typealias Files = FileStoreTestSupport

    @Test("one transaction forgets finished userInfo and file transfers; outstanding and unknown ids are ignored")
    func oneTransactionForgetsBothKinds() async throws {
        try await Support.withStore(durability: .power) { store, configuration throws in
            var transfers: [OutboxTransfer] = []
            for _ in 0..<3 { transfers.append(try await store.enqueue(transferId: UUID(), payload: [:])) }
            _ = try await store.acknowledge(upTo: transfers[1].seq)
            let source = try Files.write(Files.content(100), named: "f", in: configuration.directory)
            let ended = try await store.files.enqueueFile(source: source, metadata: nil)
            let waiting = try await store.files.enqueueFile(source: source, metadata: nil)
            _ = try await store.files.finishFile(seq: ended.seq, outcome: .received)

            let commits = store.database.commits
            try await store.markFinishedReported(
                transfers.map(\.transferId) + [ended.transferId, waiting.transferId, UUID()], includingFiles: true)
            #expect(store.database.commits == commits + 1)
            #expect(try await store.unreportedFinished(limit: 10).isEmpty)
            #expect(try await store.files.unreportedFinishedFiles(limit: 10).isEmpty)
            #expect(try await store.outstanding(after: 0, limit: 10).map(\.seq) == [transfers[2].seq])
            #expect(try await store.files.outstandingFiles(limit: 10).map(\.seq) == [waiting.seq])
            #expect(try await store.database.writerPragma("synchronous") == "2", "a relaxed commit restores FULL")
        }
    }

    @Test("without includingFiles a finished file transfer stays for its own acknowledgement")
    func filesOnlyWhenAsked() async throws {
        try await Support.withStore { store, configuration throws in
            let source = try Files.write(Files.content(10), named: "f", in: configuration.directory)
            let file = try await store.files.enqueueFile(source: source, metadata: nil)
            _ = try await store.files.finishFile(seq: file.seq, outcome: .received)
            try await store.markFinishedReported([file.transferId])
            #expect(try await store.files.unreportedFinishedFiles(limit: 10).map(\.transferId) == [file.transferId])
        }
    }
}
