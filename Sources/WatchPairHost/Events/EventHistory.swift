import Foundation
import Glibc
import Logging
import Synchronization
import WatchPairCore
import WatchPairWire

/// The app's diagnostic events on disk, so `wcctl events` and `wcctl timeline` see across restarts.
///
/// Two files in the state directory, one ``DiagnosticEvent/controlJSON`` object per line (written by
/// `DiagnosticEvent.historyLine`, the same canonical text without building the JSON value):
/// `events.jsonl` (being written) and `events.1.jsonl` (the segment before it). Bound: when the current
/// file holds ``segmentLimit`` events it becomes `events.1.jsonl`, replacing the older segment, and a new
/// file starts; so between `segmentLimit` and `2 × segmentLimit` events (the newest) are kept, about
/// 300 bytes each, and the oldest half is dropped at once when full. Lines are written with one
/// `write(2)` per batch the event sink hands over, and not fsynced: events are diagnostics, and a kill -9 loses none (the page cache
/// keeps them); power loss may lose the last few. A line cut short by a crash is skipped when read.
public final class EventHistory: Sendable {
    /// The file being written.
    public static let currentFileName = "events.jsonl"
    /// The previous segment.
    public static let previousFileName = "events.1.jsonl"
    /// Events per file by default: at most 10,000 kept, about 3 MB.
    public static let defaultSegmentLimit = 5000

    /// Events per file before it rotates.
    public let segmentLimit: Int
    private let directory: String
    private struct State {
        var descriptor: Int32
        var count: Int
    }
    private let state: Mutex<State>

    private init(directory: String, segmentLimit: Int, descriptor: Int32, count: Int) {
        self.directory = directory
        self.segmentLimit = segmentLimit
        self.state = Mutex(State(descriptor: descriptor, count: count))
    }

    /// Opens (creating it when missing) the history in `directory` and returns it with the events it
    /// holds, oldest first, as ``EarlierEvents`` (read when first needed: the launch parses nothing; it
    /// counts the current file's lines, for its rotation). Never fails the app: when the file cannot be
    /// opened the error is logged and the app runs with events in memory only (nil).
    public static func open(
        directory: String, segmentLimit: Int = defaultSegmentLimit, logger: Logger
    ) -> (history: EventHistory?, earlier: EarlierEvents) {
        precondition(segmentLimit > 0, "a history segment holds at least one event")
        let path = directory + "/" + currentFileName
        let previous = Glibc.open(directory + "/" + previousFileName, O_RDONLY | O_CLOEXEC)
        let reader = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        var status = stat()
        let length = reader >= 0 && fstat(reader, &status) == 0 ? Int(status.st_size) : 0
        let earlier = EarlierEvents(previous: previous, current: reader, currentLength: length)
        let descriptor = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
        guard descriptor >= 0 else {
            logger.warning("events are kept in memory only: cannot open \(path): \(String(cString: strerror(errno)))")
            return (nil, earlier)
        }
        let current = reader >= 0 ? HistoryFileBytes.lines(reader, length: length) : (count: 0, endsMidLine: false)
        // A line cut short by a crash is ended, so the next event starts a line of its own.
        if current.endsMidLine { _ = writeAll(descriptor, Array("\n".utf8)) }
        let history = EventHistory(directory: directory, segmentLimit: segmentLimit, descriptor: descriptor, count: current.count)
        return (history, earlier)
    }

    /// Appends `event`, rotating first when the current file is full. A failed write is dropped: the
    /// event still reaches the journal or stderr and the in-memory log.
    public func append(_ event: DiagnosticEvent) {
        append(contentsOf: [event])
    }

    /// Appends `events` in order with one `write(2)` per file they land in (a batch that fills the
    /// current file rotates it between two writes). A failed write drops its lines, as ``append(_:)``.
    public func append(contentsOf events: [DiagnosticEvent]) {
        var pending = events[...]
        // The lines are written into one buffer, reused from chunk to chunk: no array per line, none joined.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(320 * events.count)
        state.withLock { state in
            while !pending.isEmpty, state.descriptor >= 0 {
                if state.count >= segmentLimit { rotate(&state) }
                guard state.descriptor >= 0 else { return }
                let chunk = pending.prefix(segmentLimit - state.count)
                bytes.removeAll(keepingCapacity: true)
                for event in chunk { event.appendHistoryLine(to: &bytes) }
                if writeAll(state.descriptor, bytes) { state.count += chunk.count }
                pending = pending.dropFirst(chunk.count)
            }
        }
    }

    /// Closes the file; later appends are dropped.
    public func close() {
        state.withLock { state in
            if state.descriptor >= 0 { Glibc.close(state.descriptor) }
            state.descriptor = -1
        }
    }

    private func rotate(_ state: inout State) {
        Glibc.close(state.descriptor)
        let current = directory + "/" + Self.currentFileName
        rename(current, directory + "/" + Self.previousFileName)
        state.descriptor = Glibc.open(current, O_WRONLY | O_APPEND | O_CREAT | O_TRUNC | O_CLOEXEC, 0o640)
        state.count = 0
    }
}
