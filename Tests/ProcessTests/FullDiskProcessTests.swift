import Foundation
import Testing
import WatchPairWire

/// The watch's state on a small disk of its own (a tmpfs in a private mount namespace, made with
/// `unshare`): once it fills, commits fail with SQLITE_FULL. The inbox count must still equal the rows
/// held, and `queues.inbox` must still bound them.
@Suite("Full disk", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")))
struct FullDiskProcessTests {
    @Test("after the watch's disk filled, inboxPending equals the rows stored, and the bound holds")
    func inboxCountFollowsRows() async throws {
        try await PairSandbox.with(config: ["queues": .object(["inbox": .integer(60)])]) { pair in
            let state = pair.path("watchd")
            try #require(mkdir(state, 0o700) == 0)
            let script = #"mount -t tmpfs -o size=640k tmpfs "$0" && exec "$1" --config "$2""#
            _ = try pair.spawn(
                name: "watchd (small disk)", executable: "/usr/bin/unshare",
                arguments: ["-rm", "/bin/sh", "-c", script, state, pair.bin + "/watchd", pair.configPath(.watch)],
                stdout: .file(pair.stderrPath(.watch)), stderr: .file(pair.stderrPath(.watch)))
            try await pair.waitReady(.watch)
            try await pair.startReady(.phone)
            // 40 transfers of 20 KB: far more than 640 KB of disk once SQLite's WAL holds them too.
            let filler = String(repeating: "x", count: 20_000)
            for n in 1...40 { _ = try await pair.transfer(#"{"n":\#(n),"fill":"\#(filler)"}"#) }
            try await pair.pollUntil("the watch to run out of disk", timeout: .seconds(60)) {
                let events = try await pair.ok(["--json", "events"], side: .watch)
                return events.json.contains { $0["event"]?.stringValue == "queueFull" && $0["errorCode"] == .integer(7015) }
            }
            // Nothing more arrives: the count and the rows can be compared at rest. (The app cannot take
            // them: on a full disk even the delete fails, with 7015.)
            await pair.killDaemon(.phone)
            let pending = try #require(try await pair.status(.watch)["inboxPending"]?.integerValue)
            // Each stored row was announced once, after its commit (nothing was taken yet).
            let events = try await pair.ok(["--json", "events"], side: .watch)
            let stored = events.json.filter { $0["event"]?.stringValue == "userInfoDelivered" }.count
            #expect(stored > 0, "nothing was stored before the disk filled")
            #expect(pending == Int64(stored), "inboxPending \(pending), but \(stored) rows were stored")
            #expect(stored <= 60)
        }
    }
}
