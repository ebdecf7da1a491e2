import Foundation
import Testing
@testable import WatchPairCore
import WatchPairWire

@Suite("Store: the sender's file queue")
struct FileOutboxStoreTests {
    typealias Support = StoreTestSupport
    typealias Files = FileStoreTestSupport

    @Test("an accepted file is the store's own copy: seq in order, size and CRC-32C of its bytes, the app may delete its file")
    func acceptedFileIsCopied() async throws {
        try await Support.withStore { store, configuration throws in
            // Past two writeback stretches and not a whole buffer at the end: every branch of the copy loop.
            let bytes = Files.content(2 * Int(FileSpool.writebackBytes) + 3 * FileSpool.copyBufferSize + 17)
            let source = try Files.write(bytes, named: "run 1.fit", in: configuration.directory)
            let metadata = try EncodedDictionary(["kind": .string("workout")])
            let first = try await store.files.enqueueFile(source: source, metadata: metadata)
            let second = try await store.files.enqueueFile(source: source, metadata: nil)
            try FileManager.default.removeItem(atPath: source)

            #expect([first.seq, second.seq] == [1, 2])
            #expect(first.fileName == "run 1.fit")
            #expect(first.size == UInt64(bytes.count))
            #expect(first.checksum == CRC32C.checksum(bytes))
            #expect(first.metadata == metadata && second.metadata == nil)
            #expect(try await store.files.outstandingFiles(limit: 10) == [first, second])
            #expect(try Data(contentsOf: URL(fileURLWithPath: first.spoolPath)) == bytes)
            #expect(try await store.files.readChunk(of: first, at: 5, count: 4) == bytes[5..<9])
            #expect(try await store.files.readChunk(of: first, at: UInt64(bytes.count) - 2, count: 64) == bytes.suffix(2))
        }
    }

    // A FIFO with no writer once blocked the copy's open() for good: the time limit turns that into a failure.
    @Test("a missing, unreadable or non-regular source (a folder, a FIFO) is 7008 naming the path, at once; nothing is stored",
          .timeLimit(.minutes(3)))
    func badSources() async throws {
        try await Support.withStore { store, configuration throws in
            let missing = configuration.directory + "/nope.bin"
            let folder = configuration.directory + "/a-folder"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            let fifo = configuration.directory + "/a-fifo"
            try #require(mkfifo(fifo, 0o600) == 0)
            for source in [missing, folder, "/", fifo] {
                let error = await Support.expectStoreError { _ = try await store.files.enqueueFile(source: source, metadata: nil) }
                #expect(error?.kind == .unreadableFile)
                #expect(error?.wcCode == .invalidParameter)
                #expect(error?.path == source)
                #expect(error?.description.contains(source) == true, "\(String(describing: error))")
            }
            #expect(try await store.files.outstandingFiles(limit: 10).isEmpty)
            #expect(try Files.spooled(configuration, "outgoing").isEmpty)
        }
    }

    @Test("the count and byte bounds are 7015 before anything is copied; earlier files stay")
    func bounds() async throws {
        try await Support.withTemporaryDirectory { directory throws in
            let configuration = StoreConfiguration(directory: directory + "/s", durability: .process, fileOutboxLimit: 2, fileSpoolLimit: 1000)
            try await Support.reopen(configuration) { store throws in
                let small = try Files.write(Files.content(400), named: "small", in: directory)
                let large = try Files.write(Files.content(1001), named: "large", in: directory)
                let tooMuch = await Support.expectStoreError { _ = try await store.files.enqueueFile(source: large, metadata: nil) }
                #expect(tooMuch?.kind == .outboxFull && tooMuch?.wcCode == .insufficientSpace)
                let a = try await store.files.enqueueFile(source: small, metadata: nil)
                let b = try await store.files.enqueueFile(source: small, metadata: nil)
                let third = await Support.expectStoreError { _ = try await store.files.enqueueFile(source: small, metadata: nil) }
                #expect(third?.kind == .outboxFull)
                #expect(try await store.files.outstandingFiles(limit: 10) == [a, b])
                #expect(try Files.spooled(configuration, "outgoing") == [a.transferId.uuidString, b.transferId.uuidString])
                // Finishing one makes room again; seqs go on.
                _ = try await store.files.finishFile(seq: a.seq, outcome: .received)
                #expect(try await store.files.enqueueFile(source: small, metadata: nil).seq == 3)
            }
        }
    }

    @Test("cancel deletes row and copy, once; finish keeps the row for didFinish and drops the copy")
    func cancelAndFinish() async throws {
        try await Support.withStore { store, configuration throws in
            let source = try Files.write(Files.content(100), named: "f", in: configuration.directory)
            let a = try await store.files.enqueueFile(source: source, metadata: nil)
            let b = try await store.files.enqueueFile(source: source, metadata: nil)
            #expect(try await store.files.cancelFile(transferId: a.transferId) == a)
            #expect(try await store.files.cancelFile(transferId: a.transferId) == nil)
            #expect(!FileManager.default.fileExists(atPath: a.spoolPath))

            var finished = try #require(try await store.files.finishFile(seq: b.seq, outcome: .corrupt))
            #expect(finished.outcome == .corrupt)
            #expect(try await store.files.finishFile(seq: b.seq, outcome: .received) == nil)
            #expect(try await store.files.cancelFile(transferId: b.transferId) == nil)
            #expect(!FileManager.default.fileExists(atPath: b.spoolPath))
            #expect(try await store.files.outstandingFiles(limit: 10).isEmpty)
            finished.outcome = .corrupt
            #expect(try await store.files.unreportedFinishedFiles(limit: 10) == [finished])
            try await store.files.markFilesFinishedReported([b.transferId])
            #expect(try await store.files.unreportedFinishedFiles(limit: 10).isEmpty)
            #expect(try await store.files.enqueueFile(source: source, metadata: nil).seq == 3)
        }
    }

    @Test("after a crash: accepted files and their copies are there; a half-made copy and an orphan are swept")
    func crashRecovery() async throws {
        try await Support.withTemporaryDirectory { directory throws in
            let live = StoreConfiguration(directory: directory + "/live", durability: .process)
            let crashed = StoreConfiguration(directory: directory + "/crashed", durability: .process)
            let bytes = Files.content(70_000)
            let source = try Files.write(bytes, named: "data.bin", in: directory)
            let store = try await PairStore.open(live, logger: Support.logger)
            let accepted = try await store.files.enqueueFile(source: source, metadata: try EncodedDictionary(["n": .integer(1)]))
            try Files.crashSnapshot(of: live, to: crashed)
            try await store.close()
            // What a crash mid-copy and mid-commit leaves: a temporary copy, a complete copy without its row.
            let outgoing = crashed.directory + "/spool/outgoing/"
            try Data([1, 2]).write(to: URL(fileURLWithPath: outgoing + UUID().uuidString + ".copying"))
            try Data([3]).write(to: URL(fileURLWithPath: outgoing + UUID().uuidString))

            try await Support.reopen(crashed) { recovered throws in
                var expected = accepted
                expected.spoolPath = crashed.directory + "/spool/outgoing/" + accepted.transferId.uuidString
                #expect(try await recovered.files.outstandingFiles(limit: 10) == [expected])
                #expect(try await recovered.files.readChunk(of: expected, at: 0, count: bytes.count) == bytes)
                #expect(try Files.spooled(crashed, "outgoing") == [accepted.transferId.uuidString])
                #expect(try await recovered.files.enqueueFile(source: source, metadata: nil).seq == 2)
            }
        }
    }
}
