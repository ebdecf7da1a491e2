import Foundation
import Glibc
import Synchronization
import WatchPairCore
import WatchPairWire

/// The events earlier runs left in the ``EventHistory``, read when a query first needs them, not at launch.
///
/// At launch the history only opens its two files and notes how long the current one is (no parsing), so a
/// launch costs the same with 10,000 events on disk as with none. The files stay open until they are read:
/// a rotation renames the current file over the previous segment, but the descriptors keep reading
/// what was there at launch, and the current file only up to its length then (what follows is this run's,
/// which the ``EventLog`` holds).
public final class EarlierEvents: Sendable {
    private struct Files {
        var previous: Int32
        var current: Int32
        var currentLength: Int
        /// What they held, once read.
        var events: [DiagnosticEvent]?
    }
    private let files: Mutex<Files>

    /// `previous` and `current` are read descriptors (-1: no file); `currentLength` bytes of `current` are
    /// earlier runs' events.
    init(previous: Int32, current: Int32, currentLength: Int) {
        files = Mutex(Files(previous: previous, current: current, currentLength: currentLength))
    }

    /// No earlier events.
    public static var none: EarlierEvents { EarlierEvents(previous: -1, current: -1, currentLength: 0) }

    deinit {
        files.withLock { Self.close(&$0) }
    }

    /// The earlier events, oldest first; the first call reads and parses the files on a thread of the
    /// global executor (never the socket loop), later ones get the same array.
    public func events() async -> [DiagnosticEvent] {
        await Task.detached { [self] in load() }.value
    }

    /// The earlier events, read and parsed on the caller's thread the first time (the files are closed
    /// then); a caller that comes while another reads waits for that read.
    func load() -> [DiagnosticEvent] {
        files.withLock { files in
            if let events = files.events { return events }
            let previous = HistoryFileBytes.read(files.previous, length: nil)
            let current = HistoryFileBytes.read(files.current, length: files.currentLength)
            Self.close(&files)
            let events = HistoryFileBytes.events(previous) + HistoryFileBytes.events(current)
            files.events = events
            return events
        }
    }

    /// The time of the newest earlier event (µs since 1970), from the files' last lines only, on the
    /// global executor; nil when there is none or it cannot tell without reading everything.
    public func newestTimestamp() async -> Int64? {
        await Task.detached { [self] in
            files.withLock { files -> Int64? in
                if let events = files.events { return events.last.map { EventTimestamp.microseconds($0.timestamp) } }
                if files.currentLength > 0 { return HistoryFileBytes.lastEvent(files.current, length: files.currentLength) }
                guard files.previous >= 0 else { return nil }
                var status = stat()
                guard fstat(files.previous, &status) == 0 else { return nil }
                return HistoryFileBytes.lastEvent(files.previous, length: Int(status.st_size))
            }
        }.value
    }

    private static func close(_ files: inout Files) {
        if files.previous >= 0 { Glibc.close(files.previous) }
        if files.current >= 0 { Glibc.close(files.current) }
        (files.previous, files.current, files.currentLength) = (-1, -1, 0)
    }
}
