import Foundation
import Testing
import WatchPairWire

/// A file to a watch whose disk is full (its state on a small tmpfs of its own, made with `unshare`, and
/// filled up): the watch refuses it with 7015, the phone keeps it outstanding and retries, and once room is
/// made the file arrives whole: nothing accepted is lost.
@Suite("File transfers: full disk", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")))
struct FileFullDiskProcessTests {
    /// Writes zeros to `path` until the file system is full; returns the bytes written.
    static func fill(_ path: String) throws -> Int {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SandboxError("cannot create \(path): errno \(errno)") }
        defer { close(fd) }
        let block = [UInt8](repeating: 0, count: 4096)
        var written = 0
        while true {
            let n = block.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            written += n
        }
        fsync(fd)
        return written
    }

    @Test("a file to a full disk is 7015 at the watch; the phone keeps it; after room is made it arrives whole, once")
    func receiverDiskFull() async throws {
        try await PairSandbox.with(config: ["backoff": .object(["maximum": .integer(1)])]) { pair in
            let state = pair.path("watchd")
            try #require(mkdir(state, 0o700) == 0)
            let script = #"mount -t tmpfs -o size=4m tmpfs "$0" && exec "$1" --config "$2""#
            let watchd = try pair.spawn(
                name: "watchd (small disk)", executable: "/usr/bin/unshare",
                arguments: ["-rm", "/bin/sh", "-c", script, state, pair.bin + "/watchd", pair.configPath(.watch)],
                stdout: .file(pair.stderrPath(.watch)), stderr: .file(pair.stderrPath(.watch)))
            try await pair.waitReady(.watch)
            try await pair.startReady(.phone)
            // The watch's disk as the watch sees it: its tmpfs, through its own mount namespace.
            let inside = "/proc/\(watchd.pid)/root" + state
            let filler = inside + "/filler"
            #expect(try Self.fill(filler) > 0)

            let size = 1 << 20
            let bytes = try FileTransferProcessTests.makeFile(pair.path("ride.fit"), size: size)
            let id = try #require(try await pair.ok(["transfer-file", pair.path("ride.fit")]).stdout.first)
            try await pair.pollUntil("the watch to refuse the file for space", timeout: .seconds(60)) {
                let events = try await pair.ok(["--json", "events"], side: .phone)
                return events.json.contains { $0["errorCode"] == .integer(7015) }
            }
            // Refused, not lost: still outstanding at the phone, nothing landed at the watch.
            let outstanding = try await pair.ok(["--json", "files"])
            #expect(outstanding.json.compactMap { $0["outgoing"]?["transferId"]?.stringValue } == [id], "\(outstanding)")
            #expect(!FileManager.default.fileExists(atPath: inside + "/files/ride.fit"))

            unlink(filler)
            let landed = inside + "/files/ride.fit"
            try await pair.pollUntil("the file in the watch's files/ directory", timeout: .seconds(60)) {
                FileManager.default.fileExists(atPath: landed)
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: landed)) == bytes)
            try await pair.ok(["wait", "drained", "--timeout", "30"])
            let received = try await pair.ok(["--json", "events"], side: .watch)
            #expect(received.json.filter { $0["event"]?.stringValue == "fileReceived" }.count == 1, "\(received)")
        }
    }
}
