import Foundation

/// The request queue on disk: one JSON file in a directory the app gives, replaced atomically.
///
/// Format (docs/WatchConnection.md, "The queue file"): `{"version":1,"requests":[{"id":UUID,
/// "type":String,"strategy":String,"envelope":String,"enqueuedAt":seconds since 1970}]}`, oldest first.
/// Written and read through `DurableFile`: replaced atomically and durably; a file that cannot be read
/// as a queue is renamed to `…corrupt-<suffix>` and reported, and the queue starts empty.
public struct RequestQueueFile: Sendable {
    /// The queue file's name in its directory.
    public static let fileName = "watchconnection-queue.json"

    private let file: DurableFile<Stored>

    /// The queue file.
    public var url: URL { file.url }

    /// What `load` found.
    public struct Loaded: Sendable {
        /// The queued requests, oldest first.
        public var requests: [QueuedRequest]
        /// Where an unreadable file was moved, and why it could not be read.
        public var setAside: (path: String, reason: String)?
    }

    /// The queue file in `directory`.
    public init(directory: URL) {
        file = DurableFile(url: directory.appendingPathComponent(Self.fileName))
    }

    private struct Stored: Codable {
        var version: Int
        var requests: [Entry]
    }

    private struct Entry: Codable {
        var id: UUID
        var type: String
        var strategy: DeliveryStrategy
        var envelope: String
        var enqueuedAt: Double
    }

    /// Reads the queue; a missing file is an empty queue, an unreadable one (or another version) is set aside.
    public func load(setAsideSuffix: String) -> Loaded {
        switch file.read(setAsideSuffix: setAsideSuffix) {
        case .setAside(let path, let reason):
            return Loaded(requests: [], setAside: (path, reason))
        case .content(let stored?) where stored.version != 1:
            // Another version's file is not ours to guess at: keep it aside like an unreadable one.
            let aside = file.url.path + ".corrupt-" + setAsideSuffix
            _ = try? FileManager.default.moveItem(atPath: file.url.path, toPath: aside)
            return Loaded(requests: [], setAside: (aside, "unknown queue file version \(stored.version)"))
        case .content(let stored):
            let requests = (stored?.requests ?? []).map {
                QueuedRequest(
                    id: $0.id, requestType: $0.type, strategy: $0.strategy, envelope: $0.envelope,
                    enqueuedAt: Duration(seconds: $0.enqueuedAt))
            }
            return Loaded(requests: requests)
        }
    }

    /// Replaces the queue file with `requests` atomically and durably.
    public func save(_ requests: [QueuedRequest]) throws(WatchConnectionError) {
        try file.write(Stored(
            version: 1,
            requests: requests.map {
                Entry(id: $0.id, type: $0.requestType, strategy: $0.strategy, envelope: $0.envelope, enqueuedAt: $0.enqueuedAt.seconds)
            }))
    }
}
