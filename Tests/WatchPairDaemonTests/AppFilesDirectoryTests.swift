import Foundation
import Testing
@testable import WatchPairCore
import WatchPairHost
import WatchPairWire

/// Landing received files in the app's `files/` directory: modes that let the daemon's group read them.
@Suite("App files directory")
struct AppFilesDirectoryTests {
    @Test("a spooled file (0600) lands group-readable (0640) in a 0750 directory; landing again finds it by inode")
    func landedFileIsGroupReadable() throws {
        let state = try #require(String(validatingCString: mkdtemp(strdup("/tmp/wp-files.XXXXXX"))))
        defer { try? FileManager.default.removeItem(atPath: state) }
        let spooled = state + "/spooled"
        try Data("ride".utf8).write(to: URL(fileURLWithPath: spooled))
        try #require(chmod(spooled, 0o600) == 0)
        let offer = FileOffer(seq: 1, after: 0, transferId: UUID(), fileName: "ride.fit", size: 4, checksum: 0, metadata: nil)
        let file = IncomingFile(peerStoreId: UUID(), offer: offer, durableOffset: 4, runningChecksum: 0, isComplete: true, spoolPath: spooled)
        let directory = AppFilesDirectory(stateDirectory: state)

        let landed = try directory.land(file)
        #expect(landed == directory.path + "/ride.fit")
        #expect(Self.mode(landed) == 0o640)
        #expect(Self.mode(directory.path) == 0o750)
        #expect(try directory.land(file) == landed)
        #expect(directory.list().map(\.name) == ["ride.fit"])
    }

    /// The permission bits of `path`.
    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }
}
