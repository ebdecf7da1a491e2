import Foundation
import Synchronization
import Testing
import WatchConnectivity
import WatchConnectivityTesting

/// The file path of a WatchConnectivitySwift-style library and a LocalData-style sync service
/// (`FileTransferStyle.swift`) on WatchPair's `WatchConnectivity`, both apps in one process.
@MainActor
@Suite("WatchConnectivitySwift-style file transfers", .timeLimit(.minutes(3)))
struct FileTransferStyleTests {
    /// Files the watch's handler moved out of the way while `didReceive` ran.
    final class Inbox: Sendable {
        let directory: URL
        let moved = Mutex<[(name: String, metadata: [String: String])]>([])
        let (arrivals, arrived) = AsyncStream.makeStream(of: String.self)

        init(directory: URL) throws {
            self.directory = directory
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        func take(_ file: ReceivedFile) {
            let name = file.fileURL.lastPathComponent
            try? FileManager.default.moveItem(at: file.fileURL, to: directory.appendingPathComponent(name))
            moved.withLock { $0.append((name, (file.metadata ?? [:]).compactMapValues { $0 as? String })) }
            arrived.yield(name)
        }
    }

    /// A connection on `session`, activated.
    static func activated(_ session: WCSession, receives: @escaping @Sendable (ReceivedFile) -> Void = { _ in }) async -> FileConnection {
        let connection = FileConnection(session: session, onFileReceived: receives)
        connection.activate()
        var states = connection.activations.makeAsyncIterator()
        #expect(await states.next() == .activated)
        return connection
    }

    /// Both apps' connections over an in-memory pair, activated.
    static func connections(
        _ pair: WCSessionPair, watchReceives: @escaping @Sendable (ReceivedFile) -> Void
    ) async -> (phone: FileConnection, watch: FileConnection) {
        (await activated(pair.phone), await activated(pair.watch, receives: watchReceives))
    }

    /// `size` bytes of a repeating pattern in `directory/name`.
    static func file(_ directory: String, _ name: String, size: Int) throws -> (URL, Data) {
        let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let url = URL(fileURLWithPath: directory).appendingPathComponent(name)
        try bytes.write(to: url)
        return (url, bytes)
    }

    @Test("a tracked file completes at progress 1; the watch's handler moves it during didReceive, metadata intact")
    func trackedFile() async throws {
        let pair = try WCSessionPair(.inMemory)
        let inbox = try Inbox(directory: URL(fileURLWithPath: pair.directory + "/kept"))
        // WCSession holds its delegate weakly, as Apple's does: the test keeps both connections.
        let (phone, watch) = await Self.connections(pair, watchReceives: inbox.take)
        defer { withExtendedLifetime(watch) {} }
        let (url, bytes) = try Self.file(pair.directory, "route.gpx", size: 2 << 20)
        let tracker = phone.transferFile(url, metadata: ["id": "123"])
        #expect(tracker.isTransferring && tracker.fileURL == url)
        #expect(tracker.metadata?["id"] as? String == "123")
        try await tracker.waitForCompletion()
        #expect(tracker.isCompleted && !tracker.isTransferring && tracker.fractionCompleted == 1)
        var arrivals = inbox.arrivals.makeAsyncIterator()
        #expect(await arrivals.next() == "route.gpx")
        #expect(inbox.moved.withLock { $0.map(\.metadata) } == [["id": "123"]])
        #expect(try Data(contentsOf: inbox.directory.appendingPathComponent("route.gpx")) == bytes)
        #expect(phone.outstandingCount == 0)
        await pair.shutdown()
    }

    @Test("a missing file fails its tracker with 7008; a cancelled one fails as cancelled and never arrives")
    func failures() async throws {
        let pair = try WCSessionPair(.inMemory)
        let inbox = try Inbox(directory: URL(fileURLWithPath: pair.directory + "/kept"))
        // The watch app is not running yet: the cancel certainly comes before the file could arrive.
        let phone = await Self.activated(pair.phone)
        let missing = phone.transferFile(URL(fileURLWithPath: pair.directory + "/nowhere.bin"))
        await #expect(throws: FileTransferFailure.failed(code: WCError.Code.invalidParameter.rawValue)) {
            try await missing.waitForCompletion()
        }
        let (draft, _) = try Self.file(pair.directory, "draft.bin", size: 1 << 20)
        let cancelled = phone.transferFile(draft)
        cancelled.cancel()
        await #expect(throws: FileTransferFailure.cancelled) { try await cancelled.waitForCompletion() }
        #expect(phone.outstandingCount == 0)
        // The next file is the first the watch gets.
        let watch = await Self.activated(pair.watch, receives: inbox.take)
        let (next, _) = try Self.file(pair.directory, "next.bin", size: 1000)
        try await phone.transferFile(next).waitForCompletion()
        var arrivals = inbox.arrivals.makeAsyncIterator()
        #expect(await arrivals.next() == "next.bin")
        withExtendedLifetime(watch) {}
        await pair.shutdown()
    }

    @Test("LocalData-style: a large value sent as a file arrives under its key")
    func largeValue() async throws {
        let pair = try WCSessionPair(.inMemory)
        let watchStore = LargeValueSync(stagingDirectory: URL(fileURLWithPath: pair.directory))
        let (received, arrived) = AsyncStream.makeStream(of: Void.self)
        let (phone, watch) = await Self.connections(pair) { file in
            watchStore.receive(file)
            arrived.yield()
        }
        defer { withExtendedLifetime(watch) {} }
        let phoneStore = LargeValueSync(stagingDirectory: URL(fileURLWithPath: pair.directory))
        let value = Data(repeating: 0x5A, count: 300_000)  // far over the 65,536-byte userInfo limit
        let tracker = try phoneStore.send(value, for: "workoutHistory", through: phone)
        try await tracker.waitForCompletion()
        var iterator = received.makeAsyncIterator()
        _ = await iterator.next()
        #expect(watchStore.value(for: "workoutHistory") == value)
        await pair.shutdown()
    }
}
