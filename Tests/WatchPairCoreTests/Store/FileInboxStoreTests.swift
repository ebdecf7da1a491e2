import Foundation
import Testing
@testable import WatchPairCore
import WatchPairWire

@Suite("Store: the receiver's partial and received files")
struct FileInboxStoreTests {
    typealias Support = StoreTestSupport
    typealias Files = FileStoreTestSupport

    static func offer(_ seq: UInt64, _ bytes: Data, checksum: UInt32? = nil) -> FileOffer {
        FileOffer(
            seq: seq, after: seq - 1, transferId: UUID(), fileName: "f\(seq).bin", size: UInt64(bytes.count),
            checksum: checksum ?? CRC32C.checksum(bytes), metadata: try! EncodedDictionary(["seq": .integer(Int64(seq))]))
    }

    static func open(_ store: PairStore, _ peer: UUID, _ offer: FileOffer) async throws -> IncomingFile {
        guard case .open(let file) = try await store.files.openIncomingFile(from: peer, offer: offer) else {
            Issue.record("offer \(offer.seq) was not opened")
            throw CancellationError()
        }
        return file
    }

    @Test("chunks become durable in order; the offset is the resume point; a whole file with its checksum is received once")
    func receiveInChunks() async throws {
        try await Support.withStore { store, _ throws in
            let peer = UUID()
            let bytes = Files.content(10_000)
            let offer = Self.offer(1, bytes)
            var file = try await Self.open(store, peer, offer)
            #expect(file.durableOffset == 0 && !file.isComplete)
            file = try await store.files.appendIncoming(file, chunks: [bytes[0..<3000], bytes[3000..<4000]])
            #expect(file.durableOffset == 4000)
            // Offered again (a reconnect): resumed where it stands, not restarted.
            #expect(try await store.files.openIncomingFile(from: peer, offer: offer) == .open(file))
            file = try await store.files.appendIncoming(file, chunks: [bytes[4000...]])
            #expect(try await store.files.completeIncoming(file) == .received)
            #expect(try Data(contentsOf: URL(fileURLWithPath: file.spoolPath)) == bytes)
            #expect(try await store.files.lastPassedFileSeq(from: peer) == 1)
            #expect(try await store.files.openIncomingFile(from: peer, offer: offer) == .passed(.received))

            let received = try await store.files.receivedFiles(limit: 10)
            #expect(received.map(\.offer.transferId) == [offer.transferId])
            #expect(received.first?.offer.metadata == offer.metadata && received.first?.isComplete == true)
            try await store.files.consumeReceivedFile(transferId: offer.transferId)
            #expect(try await store.files.receivedFiles(limit: 10).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: file.spoolPath))
        }
    }

    @Test("a checksum that differs is corrupt: the file is deleted, the seq passed, and a repeat offer is told so")
    func corruptFile() async throws {
        try await Support.withStore { store, _ throws in
            let peer = UUID()
            let bytes = Files.content(500)
            let offer = Self.offer(1, bytes, checksum: CRC32C.checksum(bytes) ^ 1)
            let file = try await store.files.appendIncoming(try await Self.open(store, peer, offer), chunks: [bytes])
            #expect(try await store.files.completeIncoming(file) == .corrupt)
            #expect(!FileManager.default.fileExists(atPath: file.spoolPath))
            #expect(try await store.files.receivedFiles(limit: 10).isEmpty)
            #expect(try await store.files.openIncomingFile(from: peer, offer: offer) == .passed(.corrupt))
        }
    }

    @Test("bad progress is refused: past the end, from a stale offset, completing a partial file")
    func badProgress() async throws {
        try await Support.withStore { store, _ throws in
            let peer = UUID()
            let bytes = Files.content(100)
            let file = try await Self.open(store, peer, Self.offer(1, bytes))
            #expect(await Support.expectStoreError { _ = try await store.files.appendIncoming(file, chunks: [bytes, Data([0])]) }?.kind == .ioFailure)
            let moved = try await store.files.appendIncoming(file, chunks: [bytes[0..<10]])
            #expect(await Support.expectStoreError { _ = try await store.files.appendIncoming(file, chunks: [bytes[0..<10]]) }?.kind == .ioFailure)
            #expect(await Support.expectStoreError { _ = try await store.files.completeIncoming(moved) }?.kind == .ioFailure)
            #expect(try await store.files.openIncomingFile(from: peer, offer: file.offer) == .open(moved))
        }
    }

    @Test("cancel leaves no partial file and passes the seq; a later offer drops an earlier unfinished one")
    func cancelAndStale() async throws {
        try await Support.withStore { store, configuration throws in
            let peer = UUID()
            let bytes = Files.content(300)
            let first = try await store.files.appendIncoming(try await Self.open(store, peer, Self.offer(1, bytes)), chunks: [bytes[0..<100]])
            #expect(try await store.files.cancelIncoming(from: peer, seq: 1))
            #expect(!FileManager.default.fileExists(atPath: first.spoolPath))
            #expect(try await store.files.openIncomingFile(from: peer, offer: first.offer) == .passed(.cancelled))
            #expect(try await store.files.cancelIncoming(from: peer, seq: 1) == false)

            let second = try await store.files.appendIncoming(try await Self.open(store, peer, Self.offer(2, bytes)), chunks: [bytes[0..<5]])
            let third = try await Self.open(store, peer, Self.offer(4, bytes))
            #expect(!FileManager.default.fileExists(atPath: second.spoolPath))
            // The third has no bytes yet, so no file: nothing is left of the first two.
            #expect(try Files.spooled(configuration, "incoming").isEmpty)
            #expect(try await store.files.openIncomingFile(from: peer, offer: third.offer) == .open(third))
            // Another peer store's files and resume point are its own.
            let other = UUID()
            #expect(try await store.files.lastPassedFileSeq(from: other) == 0)
            #expect(try await store.files.openIncomingFile(from: other, offer: Self.offer(1, bytes)) != .passed(.cancelled))
        }
    }

    @Test("after a crash: the recorded offset is the truth; bytes written past it are cut off; orphans are swept")
    func crashRecovery() async throws {
        try await Support.withTemporaryDirectory { directory throws in
            let live = StoreConfiguration(directory: directory + "/live", durability: .process)
            let crashed = StoreConfiguration(directory: directory + "/crashed", durability: .process)
            let peer = UUID()
            let bytes = Files.content(9000)
            let offer = Self.offer(1, bytes)
            let store = try await PairStore.open(live, logger: Support.logger)
            _ = try await store.files.appendIncoming(try await Self.open(store, peer, offer), chunks: [bytes[0..<4000]])
            try Files.crashSnapshot(of: live, to: crashed)
            try await store.close()
            // The crash came after the next chunk's bytes were written, before its offset committed; and
            // after a file was created for an offer whose row never committed.
            let partial = crashed.directory + "/spool/incoming/" + offer.transferId.uuidString
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: partial))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(repeating: 0xEE, count: 6000))  // past the file's end: must be cut
            try handle.close()
            let orphan = UUID().uuidString
            try Data([1]).write(to: URL(fileURLWithPath: crashed.directory + "/spool/incoming/" + orphan))

            try await Support.reopen(crashed) { recovered throws in
                #expect(try Files.spooled(crashed, "incoming") == [offer.transferId.uuidString])
                guard case .open(var file) = try await recovered.files.openIncomingFile(from: peer, offer: offer) else {
                    Issue.record("not resumable"); return
                }
                #expect(file.durableOffset == 4000)
                file = try await recovered.files.appendIncoming(file, chunks: [bytes[4000...]])
                #expect(try await recovered.files.completeIncoming(file) == .received)
                #expect(try Data(contentsOf: URL(fileURLWithPath: file.spoolPath)) == bytes)
            }
        }
    }
}
