import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The request queue on disk: one JSON file in a directory the app gives, replaced atomically.
///
/// Format (docs/WatchConnection.md, "The queue file"): `{"version":1,"requests":[{"id":UUID,
/// "type":String,"strategy":String,"envelope":String,"enqueuedAt":seconds since 1970}]}`, oldest first.
/// `save` writes a temporary file, fsyncs it, renames it over the queue file and fsyncs the directory,
/// so after a kill -9 the file is either the old queue or the new one, never a mix. A file that cannot
/// be read as a queue is renamed to `…corrupt-<seconds>` and reported; the queue starts empty.
public struct RequestQueueFile: Sendable {
    /// The queue file's name in its directory.
    public static let fileName = "watchconnection-queue.json"

    /// The queue file.
    public let url: URL

    /// What `load` found.
    public struct Loaded: Sendable {
        /// The queued requests, oldest first.
        public var requests: [QueuedRequest]
        /// Where an unreadable file was moved, and why it could not be read.
        public var setAside: (path: String, reason: String)?
    }

    /// The queue file in `directory`.
    public init(directory: URL) {
        url = directory.appendingPathComponent(Self.fileName)
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

    /// Reads the queue; a missing file is an empty queue, an unreadable one is set aside.
    public func load(setAsideSuffix: String) -> Loaded {
        guard let data = try? Data(contentsOf: url) else { return Loaded(requests: []) }
        do {
            let stored = try JSONDecoder().decode(Stored.self, from: data)
            guard stored.version == 1 else {
                throw WatchConnectionError.decodingFailed(description: "unknown queue file version \(stored.version)")
            }
            let requests = stored.requests.map {
                QueuedRequest(
                    id: $0.id, requestType: $0.type, strategy: $0.strategy, envelope: $0.envelope,
                    enqueuedAt: .milliseconds(Int64(($0.enqueuedAt * 1000).rounded())))
            }
            return Loaded(requests: requests)
        } catch {
            let aside = url.path + ".corrupt-" + setAsideSuffix
            // Renaming keeps the bytes for a person to look at; if even that fails, removing the file
            // is the only way the next save can work.
            if rename(url.path, aside) != 0 { unlink(url.path) }
            return Loaded(requests: [], setAside: (aside, String(describing: error)))
        }
    }

    /// Replaces the queue file with `requests` atomically and durably.
    public func save(_ requests: [QueuedRequest]) throws(WatchConnectionError) {
        let stored = Stored(
            version: 1,
            requests: requests.map {
                Entry(
                    id: $0.id, type: $0.requestType, strategy: $0.strategy, envelope: $0.envelope,
                    enqueuedAt: Double($0.enqueuedAt.components.seconds)
                        + Double($0.enqueuedAt.components.attoseconds) / 1e18)
            })
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            data = try encoder.encode(stored)
        } catch {
            throw .queueStorageFailed(description: "encoding: \(error)")
        }
        let temporary = url.path + ".tmp"
        try Self.writeDurably(data, to: temporary)
        guard rename(temporary, url.path) == 0 else { throw Self.failure("rename \(temporary)") }
        try Self.syncDirectory(url.deletingLastPathComponent().path)
    }

    private static func writeDurably(_ data: Data, to path: String) throws(WatchConnectionError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("open \(path)") }
        defer { close(fd) }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        guard written else { throw failure("write \(path)") }
        guard fsync(fd) == 0 else { throw failure("fsync \(path)") }
    }

    private static func syncDirectory(_ path: String) throws(WatchConnectionError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open \(path)") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw failure("fsync \(path)") }
    }

    /// The failure of the syscall just attempted, with its errno.
    private static func failure(_ attempted: String) -> WatchConnectionError {
        let code = errno
        return .queueStorageFailed(description: "\(attempted): \(String(cString: strerror(code))) (errno \(code))")
    }
}
