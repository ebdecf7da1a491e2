import Foundation
import Testing
@testable import WatchConnection

@Suite("Durable log: a snapshot line, then one line per change")
struct DurableLogTests {
    struct Numbers: Codable, Equatable {
        var numbers: [Int]
    }

    typealias Log = DurableLog<Numbers, Int>

    /// A log in a fresh directory, and that directory (removed by the caller).
    private func freshLog(minimumAppends: Int = 64, minimumBytes: Int = 32 * 1024) throws -> (Log, URL) {
        let directory = try temporaryDirectory()
        let url = directory.appendingPathComponent("log.json")
        return (Log(url: url, minimumAppends: minimumAppends, minimumBytes: minimumBytes), directory)
    }

    /// What `read` gave, as the snapshot's numbers and the changes, or nil for no file or set aside.
    private func content(_ log: Log) -> [Int]? {
        guard case .content(let snapshot, let changes) = log.read(setAsideSuffix: "x") else { return nil }
        return snapshot.numbers + changes
    }

    private func lines(_ log: Log) throws -> [String] {
        try String(contentsOf: log.url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test("no file: the first change writes a snapshot (the state with it); later ones are appended lines")
    func firstSnapshotThenAppends() throws {
        let (log, directory) = try freshLog()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard case .empty = log.read(setAsideSuffix: "x") else { Issue.record("a missing file is not empty"); return }
        var state: [Int] = []
        for n in 1...3 {
            state.append(n)
            try log.append(n, liveCount: state.count) { Numbers(numbers: state) }
        }
        #expect(try lines(log) == [#"{"numbers":[1]}"#, "2", "3", ""])
        #expect(content(log) == [1, 2, 3])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["log.json"])
    }

    @Test("a file of one line without a newline (as DurableFile writes) is a snapshot; appends follow it")
    func earlierFormat() throws {
        let (log, directory) = try freshLog()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"numbers":[7,8]}"#.utf8).write(to: log.url)
        #expect(content(log) == [7, 8])
        try log.append(9, liveCount: 3) { Numbers(numbers: [7, 8, 9]) }
        #expect(content(log) == [7, 8, 9])
    }

    @Test("changes reaching max(minimumAppends, liveCount) make the next change a snapshot", arguments: [
        (minimum: 4, live: 1, appendsBeforeSnapshot: 4),
        (minimum: 4, live: 6, appendsBeforeSnapshot: 6),
        (minimum: 1, live: 1, appendsBeforeSnapshot: 1),
    ])
    func compaction(minimum: Int, live: Int, appendsBeforeSnapshot: Int) throws {
        let (log, directory) = try freshLog(minimumAppends: minimum)
        defer { try? FileManager.default.removeItem(at: directory) }
        try log.write(Numbers(numbers: [0]))
        for n in 1...appendsBeforeSnapshot {
            try log.append(n, liveCount: live) { Numbers(numbers: [-1]) }
        }
        #expect(try lines(log).count == appendsBeforeSnapshot + 2)
        try log.append(99, liveCount: live) { Numbers(numbers: [42, 99]) }
        #expect(try lines(log) == [#"{"numbers":[42,99]}"#, ""])
        try log.append(100, liveCount: live) { Numbers(numbers: [-1]) }
        #expect(content(log) == [42, 99, 100])
    }

    /// Each change is `100000` (7 bytes with its newline). A snapshot of `[0]` is 15 bytes with its newline,
    /// one of fifty numbers 155: the bound is the larger of `minimumBytes` and the snapshot's length.
    @Test("changes whose lines reach max(minimumBytes, the snapshot's length) make the next change a snapshot", arguments: [
        (minimumBytes: 21, snapshot: [0], appendsBeforeSnapshot: 3),
        (minimumBytes: 22, snapshot: [0], appendsBeforeSnapshot: 4),
        (minimumBytes: 7, snapshot: [0], appendsBeforeSnapshot: 3),
        (minimumBytes: 7, snapshot: Array(1...50), appendsBeforeSnapshot: 23),
    ])
    func compactionByBytes(minimumBytes: Int, snapshot: [Int], appendsBeforeSnapshot: Int) throws {
        let (log, directory) = try freshLog(minimumAppends: 1_000, minimumBytes: minimumBytes)
        defer { try? FileManager.default.removeItem(at: directory) }
        try log.write(Numbers(numbers: snapshot))
        for _ in 1...appendsBeforeSnapshot {
            try log.append(100_000, liveCount: 0) { Numbers(numbers: [-1]) }
        }
        #expect(try lines(log).count == appendsBeforeSnapshot + 2)
        try log.append(1, liveCount: 0) { Numbers(numbers: [1]) }
        #expect(try lines(log) == [#"{"numbers":[1]}"#, ""])
    }

    @Test("a log read back counts the bytes it holds: the bound holds across a restart")
    func compactionByBytesAfterRead() throws {
        let (log, directory) = try freshLog(minimumAppends: 1_000, minimumBytes: 21)
        defer { try? FileManager.default.removeItem(at: directory) }
        try log.write(Numbers(numbers: [0]))
        for _ in 1...2 {
            try log.append(100_000, liveCount: 0) { Numbers(numbers: [-1]) }
        }
        let reread = Log(url: log.url, minimumAppends: 1_000, minimumBytes: 21)
        #expect(content(reread) == [0, 100_000, 100_000])
        try reread.append(100_000, liveCount: 0) { Numbers(numbers: [-1]) }
        #expect(try lines(reread).count == 5)
        try reread.append(2, liveCount: 0) { Numbers(numbers: [2]) }
        #expect(try lines(reread) == [#"{"numbers":[2]}"#, ""])
    }

    /// Every instant a kill -9 can leave: the snapshot (renamed into place whole) followed by any prefix of
    /// the appended lines. The read gives the snapshot and exactly the changes whose line is complete, and
    /// the next change after it is never appended to torn bytes.
    @Test("a kill at any byte of the appends: complete lines read back, the torn one is dropped, the next change is clean")
    func killAtAnyByte() throws {
        let (log, directory) = try freshLog()
        defer { try? FileManager.default.removeItem(at: directory) }
        try log.write(Numbers(numbers: [1]))
        let snapshotLength = try Data(contentsOf: log.url).count
        for n in [22, 333, 4444] {
            try log.append(n, liveCount: 1) { Numbers(numbers: []) }
        }
        let whole = try Data(contentsOf: log.url)
        let lineEnds = whole.indices.filter { whole[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
        for cut in snapshotLength...whole.count {
            try whole.prefix(cut).write(to: log.url)
            let reread = Log(url: log.url)
            let complete = lineEnds.filter { $0 <= cut }.count - 1
            let expected = [1] + [22, 333, 4444].prefix(complete)
            #expect(content(reread) == expected, "cut at \(cut)")
            try reread.append(5, liveCount: 1) { Numbers(numbers: expected + [5]) }
            #expect(content(reread) == expected + [5], "cut at \(cut), then a change")
            #expect(content(Log(url: log.url)) == expected + [5], "cut at \(cut), read by a new process")
        }
    }

    @Test("an undecodable line (not the torn last one) sets the whole file aside, by line number", arguments: [
        (#"{"numbers":[1]}"# + "\n2\nnope\n4\n", "line 3"),
        (#"{"numbers":[1]}"# + "\n\"two\"\n", "line 2"),
        ("{not json\n3\n", "not valid JSON"),
        ("", "not valid JSON"),
    ])
    func corrupt(contents: String, mentions: String) throws {
        let (log, directory) = try freshLog()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(contents.utf8).write(to: log.url)
        guard case .setAside(let path, let reason) = log.read(setAsideSuffix: "123") else {
            Issue.record("not set aside: \(contents)")
            return
        }
        #expect(path == log.url.path + ".corrupt-123")
        #expect(reason.contains(mentions))
        #expect(FileManager.default.contents(atPath: path) == Data(contents.utf8))
        #expect(!FileManager.default.fileExists(atPath: log.url.path))
        try log.append(1, liveCount: 1) { Numbers(numbers: [1]) }
        #expect(content(log) == [1])
    }

    @Test("a change that cannot be written throws queueStorageFailed with errno")
    func unwritable() {
        let log = Log(url: URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/log.json"))
        #expect {
            try log.append(1, liveCount: 1) { Numbers(numbers: [1]) }
        } throws: { error in
            guard case .queueStorageFailed(let description) = error as? WatchConnectionError else { return false }
            return description.contains("errno")
        }
    }
}

@Suite("Response ledger file")
struct ResponseLedgerFileTests {
    private func record(_ n: Int) -> ResponseLedger.Record {
        ResponseLedger.Record(id: UUID(uuid: (UInt8(n % 256), UInt8(n / 256), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)),
                              response: "response \(n)", at: .milliseconds(1_700_000_000_000 + n))
    }

    @Test("records saved one by one past the capacity load as the newest `capacity`, in order, from a bounded file")
    func boundedAndInOrder() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = ResponseLedgerFile(directory: directory)
        var ledger = ResponseLedger(capacity: 100)
        for n in 0..<350 {
            _ = ledger.event(.arrived(id: record(n).id, now: record(n).at))
            _ = ledger.event(.finished(id: record(n).id, response: record(n).response, now: record(n).at))
            try file.save(record(n), of: ledger)
        }
        let loaded = file.load(setAsideSuffix: "x")
        #expect(loaded.setAside == nil)
        #expect(ResponseLedger(capacity: 100, records: loaded.records).records == (250..<350).map(record))
        // At most the snapshot of `capacity` and as many appended after it.
        let lines = try String(contentsOf: directory.appendingPathComponent(ResponseLedgerFile.fileName), encoding: .utf8)
            .split(separator: "\n")
        #expect(lines.count <= 101)
        #expect(loaded.records.count <= 200)
    }

    @Test("a file written before the log (one JSON object) reads as before")
    func earlierFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let earlier = #"{"records":[{"at":1700000000.5,"id":"00000000-0000-0000-0000-000000000001","response":"r"}],"version":1}"#
        try Data(earlier.utf8).write(to: directory.appendingPathComponent(ResponseLedgerFile.fileName))
        let loaded = ResponseLedgerFile(directory: directory).load(setAsideSuffix: "x")
        #expect(loaded.records == [
            ResponseLedger.Record(id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, response: "r",
                                  at: .milliseconds(1_700_000_000_500)),
        ])
    }
}
