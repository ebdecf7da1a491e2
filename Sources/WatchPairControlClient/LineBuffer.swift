/// Splits a byte stream into newline-terminated lines, with a bound on the length of one line.
///
/// Bytes are appended as they arrive from the socket; `nextLine()` hands out complete lines (without the
/// `\n`, and without a `\r` before it) as slices of the buffer, so a line is decoded where it lies. The
/// buffer never holds more than `maxLineBytes` bytes of an unfinished line plus one appended chunk: once
/// the unfinished line is longer than `maxLineBytes`, `nextLine()` throws `LineTooLong` and the stream
/// cannot be read further (the framing is lost).
public struct LineBuffer: Sendable {
    /// A line (or the unfinished tail of the stream) is longer than the limit.
    public struct LineTooLong: Error, Sendable, Hashable {
        /// The limit that was exceeded, in bytes.
        public var limit: Int
    }

    /// The longest line accepted, in bytes, not counting the newline.
    public let maxLineBytes: Int
    /// The capacity kept when the buffer empties: reused by the next chunk; a buffer grown past it by a
    /// long line is given back.
    public let retainedCapacity: Int
    private var bytes: [UInt8] = []
    /// Index of the first byte not yet handed out.
    private var start = 0
    /// Index up to which `bytes` has been searched for a newline (avoids rescanning a long partial line).
    private var scanned = 0

    /// Creates an empty buffer accepting lines of at most `maxLineBytes` bytes.
    public init(maxLineBytes: Int, retainedCapacity: Int = 1 << 16) {
        precondition(maxLineBytes > 0)
        self.maxLineBytes = maxLineBytes
        self.retainedCapacity = retainedCapacity
    }

    /// Bytes received but not yet handed out as lines.
    public var pendingByteCount: Int { bytes.count - start }

    /// Bytes held, consumed ones included (for tests of compaction).
    var storedByteCount: Int { bytes.count }

    /// Whether a complete line is waiting for ``nextLine()``.
    public var hasCompleteLine: Bool { bytes[scanned...].contains(UInt8(ascii: "\n")) }

    /// Appends bytes read from the stream.
    public mutating func append(_ chunk: some Collection<UInt8>) {
        // Consumed lines are dropped here rather than in `nextLine()`, whose slice still refers to them.
        if start == bytes.count {
            bytes.removeAll(keepingCapacity: bytes.capacity <= retainedCapacity)
            start = 0
            scanned = 0
        } else if start > 0 && start >= bytes.count / 2 {
            bytes.removeFirst(start)
            scanned -= start
            start = 0
        }
        bytes.append(contentsOf: chunk)
    }

    /// The next complete line, or nil when the buffer holds no newline yet. The slice is valid until the
    /// next ``append(_:)`` (holding it longer costs a copy of the buffer).
    ///
    /// - Throws: `LineTooLong` when the next line (complete or not) exceeds `maxLineBytes`.
    public mutating func nextLine() throws(LineTooLong) -> ArraySlice<UInt8>? {
        guard let newline = bytes[scanned...].firstIndex(of: UInt8(ascii: "\n")) else {
            scanned = bytes.count
            if bytes.count - start > maxLineBytes { throw LineTooLong(limit: maxLineBytes) }
            return nil
        }
        var end = newline
        if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        guard end - start <= maxLineBytes else { throw LineTooLong(limit: maxLineBytes) }
        let line = bytes[start..<end]
        start = newline + 1
        scanned = start
        return line
    }
}
