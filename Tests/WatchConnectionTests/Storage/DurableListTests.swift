import Foundation
import Testing
@testable import WatchConnection

@Suite("Durable list: the request queue's and the held requests' file")
struct DurableListTests {
    struct Item: Codable, Identifiable, Sendable, Equatable {
        var id: UUID
        var n: Int
    }

    private func item(_ n: Int) -> Item {
        Item(id: UUID(uuid: (UInt8(n), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)), n: n)
    }

    private func loaded(_ url: URL) -> [Int]? {
        guard case .entries(let entries) = DurableList<Item>(url: url, kind: "list").load(setAsideSuffix: "x") else { return nil }
        return entries.map(\.n)
    }

    private func lineCount(_ url: URL) throws -> Int {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").count
    }

    /// Each step is a list to save; `lines` is the file's line count after it (a snapshot resets it to 1).
    @Test("each save is one line of what changed; another order, or a first save, is a snapshot", arguments: [
        (steps: [[1], [1, 2], [1, 2, 3], [2, 3], [3], []], lines: [1, 2, 3, 4, 5, 6]),
        (steps: [[1, 2, 3], [1, 3], [1, 3, 4], [3, 4, 5]], lines: [1, 2, 3, 4]),
        (steps: [[1, 2], [2, 1], [2, 1, 3]], lines: [1, 1, 2]),
        (steps: [[1, 2], [1, 2], [1, 2]], lines: [1, 1, 1]),
    ])
    func changes(steps: [[Int]], lines: [Int]) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("list.json")
        let list = DurableList<Item>(url: url, kind: "list")
        _ = list.load(setAsideSuffix: "x")
        for (step, expectedLines) in zip(steps, lines) {
            try list.save(step.map(item))
            #expect(loaded(url) == step, "after saving \(step)")
            #expect(try lineCount(url) == expectedLines, "lines after saving \(step)")
        }
    }

    struct Large: Codable, Identifiable, Sendable, Equatable {
        var id: UUID
        var pad: String
    }

    /// What the held requests do: each request added, then removed once it ran. A removed entry's bytes
    /// stay in its line until the file is compacted, and every launch reads the whole file.
    @Test("4 KiB entries added and removed one at a time: the file stays within the byte bound, not 64 lines of them")
    func addedThenRemovedStaysSmall() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("held.json")
        let list = DurableList<Large>(url: url, kind: "held requests file")
        _ = list.load(setAsideSuffix: "x")
        var largest = 0
        for n in 0..<200 {
            let entry = Large(id: item(n % 250).id, pad: String(repeating: "x", count: 4_096))
            try list.save([entry])
            try list.save([])
            largest = max(largest, try Data(contentsOf: url).count)
        }
        // At most the bound (32 KiB), one line past it, and a snapshot holding one entry.
        #expect(largest < 32 * 1_024 + 2 * 4_300)
        guard case .entries(let entries) = DurableList<Large>(url: url, kind: "held requests file").load(setAsideSuffix: "x") else {
            Issue.record("not read")
            return
        }
        #expect(entries.isEmpty)
    }

    @Test("a file from before the log (one object, no newline) reads as it is, and the next save is a snapshot")
    func earlierFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("list.json")
        let id = item(4).id.uuidString
        try Data(#"{"requests":[{"id":"\#(id)","n":4}],"version":1}"#.utf8).write(to: url)
        let list = DurableList<Item>(url: url, kind: "list")
        guard case .entries(let entries) = list.load(setAsideSuffix: "x") else { Issue.record("not read"); return }
        #expect(entries == [item(4)])
        try list.save([item(4), item(5)])
        #expect(try lineCount(url) == 1)
        #expect(loaded(url) == [4, 5])
    }

    @Test("another version is set aside, named by the file's kind")
    func otherVersion() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("list.json")
        try Data(#"{"requests":[],"version":2}"#.utf8).write(to: url)
        guard case .setAside(let path, let reason) = DurableList<Item>(url: url, kind: "list file").load(setAsideSuffix: "9") else {
            Issue.record("not set aside")
            return
        }
        #expect(path == url.path + ".corrupt-9" && reason == "unknown list file version 2")
    }

    /// Every state a kill -9 can leave after a run of saves: each cut gives a list that some save
    /// completed (or the one in progress), never anything else, and the next save is read back whole.
    @Test("a kill at any byte of the changes: the list of a completed save, and the next save clean")
    func killAtAnyByte() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("list.json")
        let list = DurableList<Item>(url: url, kind: "list")
        let steps = [[1, 2], [1, 2, 3], [2, 3], [2, 3, 4, 5], [5]]
        try list.save(steps[0].map(item))
        let snapshotLength = try Data(contentsOf: url).count
        for step in steps.dropFirst() { try list.save(step.map(item)) }
        let whole = try Data(contentsOf: url)
        #expect(try lineCount(url) == steps.count)
        let lineEnds = whole.indices.filter { whole[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
        for cut in snapshotLength...whole.count {
            try whole.prefix(cut).write(to: url)
            let expected = steps[lineEnds.filter { $0 <= cut }.count - 1]
            let reread = DurableList<Item>(url: url, kind: "list")
            guard case .entries(let entries) = reread.load(setAsideSuffix: "x") else { Issue.record("cut at \(cut): not read"); continue }
            #expect(entries.map(\.n) == expected, "cut at \(cut)")
            try reread.save((expected + [9]).map(item))
            #expect(loaded(url) == expected + [9], "cut at \(cut), then a save")
        }
    }

    @Test("a failed save makes the next one a snapshot (what reached the disk is not known)")
    func afterFailure() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("list.json")
        let list = DurableList<Item>(url: url, kind: "list")
        try list.save([item(1)])
        try list.save([item(1), item(2)])
        try FileManager.default.removeItem(at: directory)
        #expect(throws: WatchConnectionError.self) { try list.save([item(1), item(2), item(3)]) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try list.save([item(1), item(2), item(3), item(4)])
        #expect(try lineCount(url) == 1)
        #expect(loaded(url) == [1, 2, 3, 4])
    }
}
