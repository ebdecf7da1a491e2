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

    @Test("a copy that fills the disk is 7015 and leaves nothing; files accepted before are intact; a small one still fits")
    func fullDiskDuringCopy() async throws {
        try await Support.withTemporaryDirectory { directory throws in
            let mountPoint = directory + "/disk"
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
            guard mount("tmpfs", mountPoint, "tmpfs", 0, "size=2m") == 0 else {
                Issue.record("mount failed: errno \(errno)")
                return
            }
            defer { umount(mountPoint) }
            let configuration = StoreConfiguration(directory: mountPoint + "/state", durability: .power)
            try await Support.reopen(configuration) { store throws in
                let small = Files.content(100_000, seed: 1)
                let first = try await store.enqueueFile(source: try Files.write(small, named: "small", in: directory), metadata: nil)
                let huge = try Files.write(Files.content(3 << 20), named: "huge", in: directory)
                let error = await Support.expectStoreError { _ = try await store.enqueueFile(source: huge, metadata: nil) }
                #expect(error?.kind == .diskFull && error?.wcCode == .insufficientSpace, "\(String(describing: error))")
                #expect(try Files.spooled(configuration, "outgoing") == [first.transferId.uuidString])
                #expect(try await store.outstandingFiles(limit: 10) == [first])
                #expect(try await store.readChunk(of: first, at: 0, count: small.count) == small)
                let second = try await store.enqueueFile(source: try Files.write(small, named: "again", in: directory), metadata: nil)
                #expect(second.seq == 2)
            }
        }
    }
}
