import Foundation
import Testing
@testable import WatchPairCore
import WatchPairWire

/// Helpers of the file-transfer store tests: files with known content, crash snapshots.
enum FileStoreTestSupport {
    /// `count` bytes of a pattern that differs at every offset in a 251-byte cycle, so a shifted or
    /// repeated chunk changes the checksum.
    static func content(_ count: Int, seed: UInt8 = 0) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 % 251) &+ seed })
    }

    /// Writes `data` to `<directory>/<name>` and returns the path.
    static func write(_ data: Data, named name: String, in directory: String) throws -> String {
        let path = directory + "/" + name
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Copies a live store's files (database, WAL, shared memory, spool) to `target`, as `kill -9` would
    /// leave them: what is committed is in the WAL, nothing is checkpointed or closed.
    static func crashSnapshot(of live: StoreConfiguration, to target: StoreConfiguration) throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: target.directory, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] where manager.fileExists(atPath: live.databasePath + suffix) {
            try manager.copyItem(atPath: live.databasePath + suffix, toPath: target.databasePath + suffix)
        }
        try manager.copyItem(atPath: live.directory + "/spool", toPath: target.directory + "/spool")
    }

    /// The names in a spool folder of `configuration`.
    static func spooled(_ configuration: StoreConfiguration, _ folder: String) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: configuration.directory + "/spool/" + folder))
    }
}
