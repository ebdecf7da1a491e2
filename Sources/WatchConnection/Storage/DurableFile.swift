import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON file replaced atomically and durably, read back or set aside: what the request queue and the
/// recorded responses are stored in (public for the libraries above the layer, e.g. keyed sync's ledger).
///
/// `write` writes a temporary file, fsyncs it, renames it over the file and fsyncs the directory, so
/// after a kill -9 the file is the old content or the new, never a mix. `read` returns nil for a
/// missing file; a file that does not decode is renamed to `<file>.corrupt-<suffix>` (kept for a person
/// to look at) and reported, never trapped on.
public struct DurableFile<Content: Codable>: Sendable {
    /// The file.
    public let url: URL

    /// The file at `url` (its directory must exist).
    public init(url: URL) {
        self.url = url
    }

    /// What `read` found.
    public enum ReadResult {
        /// The decoded content (nil: no file).
        case content(Content?)
        /// The file did not decode: where it was moved, and why.
        case setAside(path: String, reason: String)
    }

    /// Reads and decodes the file.
    public func read(setAsideSuffix: String) -> ReadResult {
        guard let data = try? Data(contentsOf: url) else { return .content(nil) }
        do {
            return .content(try JSONDecoder().decodeStored(Content.self, from: data))
        } catch {
            return .setAside(path: Self.setAside(url, suffix: setAsideSuffix), reason: String(describing: error))
        }
    }

    /// Replaces the file with `content`, atomically and durably.
    public func write(_ content: Content) throws(WatchConnectionError) {
        let data = try Self.encode(content, url.lastPathComponent)
        try Self.replace(url, with: data)
    }

    /// `value` as sorted-keys JSON; a failure names `what` (a file, or the part of one being written).
    static func encode<Value: Encodable>(_ value: Value, _ what: String) throws(WatchConnectionError) -> Data {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(value)
        } catch {
            throw .queueStorageFailed(description: "encoding \(what): \(error)")
        }
    }

    /// Moves an unreadable file to `<file>.corrupt-<suffix>`, kept for a person to look at, and returns
    /// that path.
    static func setAside(_ url: URL, suffix: String) -> String {
        let aside = url.path + ".corrupt-" + suffix
        // If even the rename fails, removing the file is the only way the next write can work.
        if rename(url.path, aside) != 0 { unlink(url.path) }
        return aside
    }

    /// Replaces the file at `url` with `data`: a temporary file written and fsynced, renamed over it,
    /// then the directory fsynced, so after a kill -9 the file is the old content or the new.
    static func replace(_ url: URL, with data: Data) throws(WatchConnectionError) {
        let temporary = url.path + ".tmp"
        try writeAndSync(data, to: temporary)
        guard rename(temporary, url.path) == 0 else { throw failure("rename \(temporary)") }
        try syncDirectory(url.deletingLastPathComponent().path)
    }

    private static func writeAndSync(_ data: Data, to path: String) throws(WatchConnectionError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("open \(path)") }
        defer { close(fd) }
        try writeAll(data, to: fd, path: path)
        guard fsync(fd) == 0 else { throw failure("fsync \(path)") }
    }

    /// Writes all of `data` to `fd` (retrying short writes and EINTR).
    static func writeAll(_ data: Data, to fd: Int32, path: String) throws(WatchConnectionError) {
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        guard written else { throw failure("write \(path)") }
    }

    private static func syncDirectory(_ path: String) throws(WatchConnectionError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open \(path)") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw failure("fsync \(path)") }
    }

    /// The failure of the syscall just attempted, with its errno.
    static func failure(_ attempted: String) -> WatchConnectionError {
        let code = errno
        return .queueStorageFailed(description: "\(attempted): \(String(cString: strerror(code))) (errno \(code))")
    }
}

/// write(2), named apart from `DurableFile.write`.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}

extension Duration {
    /// Seconds as a `Double`, for the files' timestamps.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// A duration of `seconds` seconds, to the millisecond.
    init(seconds: Double) {
        self = .milliseconds(Int64((seconds * 1000).rounded()))
    }
}

/// A persisted file that could not be read: where it was moved, and why.
typealias StorageSetAside = (path: String, reason: String)

extension WatchConnectionConfiguration {
    /// The suffix an unreadable file gets when set aside (`.corrupt-<seconds since 1970>`).
    var setAsideSuffix: String { "\(Int(wallClockOrigin.timeIntervalSince1970))" }
}
