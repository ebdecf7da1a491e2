import Foundation

/// The request queue on disk: one file in a directory the app gives, changed one line at a time.
///
/// Format (docs/WatchConnection.md, "The queue file"): a ``DurableList``, whose first line is
/// `{"requests":[{"enqueuedAt":seconds since 1970,"envelope":String,"id":UUID,"strategy":String,
/// "type":String}],"version":1}`, oldest first, and whose later lines are the changes since
/// (`{"add":[…],"remove":[UUID…]}`), each made durable before `save` returns. A file that cannot be read
/// as a queue is renamed to `…corrupt-<suffix>` and reported, and the queue starts empty.
public struct RequestQueueFile: Sendable {
    /// The queue file's name in its directory.
    public static let fileName = "watchconnection-queue.json"

    private let list: DurableList<Entry>

    /// The queue file.
    public var url: URL { list.url }

    /// What `load` found.
    public struct Loaded: Sendable {
        /// The queued requests, oldest first.
        public var requests: [QueuedRequest]
        /// Where an unreadable file was moved, and why it could not be read.
        public var setAside: (path: String, reason: String)?
    }

    /// The queue file in `directory`.
    public init(directory: URL) {
        list = DurableList(url: directory.appendingPathComponent(Self.fileName), kind: "queue file")
    }

    private struct Entry: Codable, Identifiable, Sendable {
        var id: UUID
        var type: String
        var strategy: DeliveryStrategy
        var envelope: String
        var enqueuedAt: Double
    }

    /// Reads the queue; a missing file is an empty queue, an unreadable one (or another version) is set aside.
    public func load(setAsideSuffix: String) -> Loaded {
        switch list.load(setAsideSuffix: setAsideSuffix) {
        case .setAside(let path, let reason):
            return Loaded(requests: [], setAside: (path, reason))
        case .entries(let entries):
            let requests = entries.map {
                QueuedRequest(
                    id: $0.id, requestType: $0.type, strategy: $0.strategy, envelope: $0.envelope,
                    enqueuedAt: Duration(seconds: $0.enqueuedAt))
            }
            return Loaded(requests: requests)
        }
    }

    /// Makes `requests` the queue on disk, durably: what changed since the last save, as one line.
    public func save(_ requests: [QueuedRequest]) throws(WatchConnectionError) {
        try list.save(requests.map {
            Entry(id: $0.id, type: $0.requestType, strategy: $0.strategy, envelope: $0.envelope, enqueuedAt: $0.enqueuedAt.seconds)
        })
    }
}
