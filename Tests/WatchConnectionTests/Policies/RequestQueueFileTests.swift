import Foundation
import Testing
import WatchConnection

func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("wconn-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite("Request queue file")
struct RequestQueueFileTests {
    @Test("save then load gives the same requests, in order; no temporary file is left")
    func roundTrip() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = RequestQueueFile(directory: directory)
        let requests = [queued(1, at: .seconds(1_700_000_000)), queued(2, at: .milliseconds(1_700_000_000_500))]
        try file.save(requests)
        #expect(file.load(setAsideSuffix: "x").requests == requests)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [RequestQueueFile.fileName])
    }

    @Test("a missing file is an empty queue")
    func missing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let loaded = RequestQueueFile(directory: directory).load(setAsideSuffix: "x")
        #expect(loaded.requests.isEmpty && loaded.setAside == nil)
    }

    @Test("a corrupt file is set aside (renamed, kept), reported, and the queue starts empty", arguments: [
        "{not json", #"{"version":9,"requests":[]}"#, "",
    ])
    func corrupt(contents: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = RequestQueueFile(directory: directory)
        try Data(contents.utf8).write(to: file.url)
        let loaded = file.load(setAsideSuffix: "123")
        #expect(loaded.requests.isEmpty)
        #expect(loaded.setAside?.path == file.url.path + ".corrupt-123")
        #expect(FileManager.default.contents(atPath: file.url.path + ".corrupt-123") == Data(contents.utf8))
        #expect(!FileManager.default.fileExists(atPath: file.url.path))
        try file.save([queued(1)])
        #expect(file.load(setAsideSuffix: "x").requests == [queued(1)])
    }

    @Test("a save that cannot be written throws queueStorageFailed with errno")
    func unwritable() {
        let file = RequestQueueFile(directory: URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)"))
        #expect {
            try file.save([queued(1)])
        } throws: { error in
            guard case .queueStorageFailed(let description) = error as? WatchConnectionError else { return false }
            return description.contains("errno")
        }
    }
}
