import Glibc
import WatchPairCore
import WatchPairWire

/// Reading the history's files by descriptor: their bytes, lines and events.
enum HistoryFileBytes {
    /// The bytes of `descriptor` from its start, `length` of them (nil: to its end); empty for -1 or an error.
    static func read(_ descriptor: Int32, length: Int?) -> [UInt8] {
        var bytes: [UInt8] = []
        forEachChunk(descriptor, length: length) { bytes += $0 }
        return bytes
    }

    /// Hands `body` the bytes of `descriptor` from its start in 64 KiB reads, `length` of them (nil: to its
    /// end), until the end, an error, or -1 for a descriptor.
    private static func forEachChunk(_ descriptor: Int32, length: Int?, _ body: (UnsafeRawBufferPointer) -> Void) {
        guard descriptor >= 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var offset = 0
        while length.map({ offset < $0 }) ?? true {
            let want = min(chunk.count, length.map { $0 - offset } ?? chunk.count)
            let got = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, want, off_t(offset)) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return }
            chunk.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[..<got])) }
            offset += got
        }
    }

    /// The events of one file's bytes, oldest first; a line that is not an event (cut short by a crash) is skipped.
    static func events(_ bytes: [UInt8]) -> [DiagnosticEvent] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).compactMap { line in
            guard let json = try? JSONValue.parse(utf8: line) else { return nil }
            return DiagnosticEvent(controlJSON: json)
        }
    }

    /// How many lines the first `length` bytes of `descriptor` hold (a last one without its newline
    /// counts), and whether that last line lacks its newline. Counts newlines in 64 KiB reads, parsing nothing.
    static func lines(_ descriptor: Int32, length: Int) -> (count: Int, endsMidLine: Bool) {
        var count = 0
        var last = UInt8(ascii: "\n")
        forEachChunk(descriptor, length: length) { buffer in
            var start = buffer.baseAddress!
            let end = start + buffer.count
            while let found = memchr(start, Int32(UInt8(ascii: "\n")), end - start) {
                count += 1
                start = UnsafeRawPointer(found) + 1
            }
            last = buffer[buffer.count - 1]
        }
        let endsMidLine = last != UInt8(ascii: "\n")
        return (count + (endsMidLine ? 1 : 0), endsMidLine)
    }

    /// The time (µs since 1970) of the last event in the first `length` bytes of `descriptor`, from its
    /// last 64 KiB; nil when none of its whole lines there is an event.
    static func lastEvent(_ descriptor: Int32, length: Int) -> Int64? {
        let start = max(0, length - (1 << 16))
        var tail = [UInt8](repeating: 0, count: length - start)
        let got = tail.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, off_t(start)) }
        guard got == tail.count else { return nil }
        var lines = tail.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)[...]
        // The first line may begin before the tail does.
        if start > 0, tail.first != UInt8(ascii: "\n") { lines = lines.dropFirst() }
        for line in lines.reversed() {
            if let json = try? JSONValue.parse(utf8: line), let event = DiagnosticEvent(controlJSON: json) {
                return EventTimestamp.microseconds(event.timestamp)
            }
        }
        return nil
    }
}
