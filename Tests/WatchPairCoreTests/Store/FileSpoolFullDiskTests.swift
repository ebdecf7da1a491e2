import Foundation
import Testing
@testable import WatchPairCore
import WatchPairWire

#if canImport(Glibc)
import Glibc
#endif

/// A real full disk: the store on a 2 MiB tmpfs. Mounting needs root (as on the project's machines and CI).
@Suite("Store: file spool on a full disk", .enabled(if: geteuid() == 0, "mounting a tmpfs needs root"))
struct FileSpoolFullDiskTests {
    typealias Support = StoreTestSupport
    typealias Files = FileStoreTestSupport

    /// Runs `body` with a scratch directory and a store configuration on a fresh 2 MiB tmpfs inside it
    /// (unmounted afterwards); records an issue and skips `body` when mounting fails.
    static func withFullableDisk(
        _ body: (_ directory: String, _ configuration: StoreConfiguration) async throws -> Void
    ) async throws {
        try await Support.withTemporaryDirectory { directory throws in
            let mountPoint = directory + "/disk"
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
            guard mount("tmpfs", mountPoint, "tmpfs", 0, "size=2m") == 0 else {
                Issue.record("mount failed: errno \(errno)")
                return
            }
            defer { umount(mountPoint) }
            try await body(directory, StoreConfiguration(directory: mountPoint + "/state", durability: .power))
        }
    }

    @Test("a copy that fills the disk is 7015 and leaves nothing; files accepted before are intact; a small one still fits")
    func fullDiskDuringCopy() async throws {
        try await Self.withFullableDisk { directory, configuration throws in
            try await Support.reopen(configuration) { store throws in
                let small = Files.content(100_000, seed: 1)
                let first = try await store.files.enqueueFile(source: try Files.write(small, named: "small", in: directory), metadata: nil)
                let huge = try Files.write(Files.content(3 << 20), named: "huge", in: directory)
                let error = await Support.expectStoreError { _ = try await store.files.enqueueFile(source: huge, metadata: nil) }
                #expect(error?.kind == .diskFull && error?.wcCode == .insufficientSpace, "\(String(describing: error))")
                #expect(try Files.spooled(configuration, "outgoing") == [first.transferId.uuidString])
                #expect(try await store.files.outstandingFiles(limit: 10) == [first])
                #expect(try await store.files.readChunk(of: first, at: 0, count: small.count) == small)
                let second = try await store.files.enqueueFile(source: try Files.write(small, named: "again", in: directory), metadata: nil)
                #expect(second.seq == 2)
            }
        }
    }

    @Test("a received chunk that fills the disk is 7015; the durable offset stays at the last write that fit")
    func fullDiskWhileReceiving() async throws {
        try await Self.withFullableDisk { directory, configuration throws in
            let bytes = Files.content(4 << 20)
            let offer = FileOffer(seq: 1, after: 0, transferId: UUID(), fileName: "big", size: UInt64(bytes.count),
                                  checksum: CRC32C.checksum(bytes), metadata: nil)
            let peer = UUID()
            var durable: UInt64 = 0
            try await Support.reopen(configuration) { store throws in
                guard case .open(var file) = try await store.files.openIncomingFile(from: peer, offer: offer) else {
                    Issue.record("not opened"); return
                }
                var failure: StoreError?
                while failure == nil, file.durableOffset < file.offer.size {
                    let start = Int(file.durableOffset)
                    do {
                        file = try await store.files.appendIncoming(file, chunks: [bytes[start..<(start + (256 << 10))]])
                    } catch {
                        failure = error as? StoreError ?? StoreError(.ioFailure, "\(error)")
                    }
                }
                #expect(failure?.kind == .diskFull && failure?.wcCode == .insufficientSpace, "\(String(describing: failure))")
                #expect(file.durableOffset > 0 && file.durableOffset < file.offer.size)
                durable = file.durableOffset
            }
            try await Support.reopen(configuration) { store throws in
                #expect(try await store.files.openIncomingFile(from: peer, offer: offer) == .open(IncomingFile(
                    peerStoreId: peer, offer: offer, durableOffset: durable, runningChecksum: CRC32C.checksum(bytes[0..<Int(durable)]),
                    isComplete: false, spoolPath: configuration.directory + "/spool/incoming/" + offer.transferId.uuidString)))
            }
        }
    }
}
