import WatchPairCore

/// Splits a control connection's byte stream into request lines.
///
/// Lines end with `\n` (a `\r` before it is dropped); empty lines are skipped. Bound: at most `limit`
/// bytes are buffered for one line. A line that grows past the limit yields ``Piece/tooLong`` once and
/// the splitter then refuses everything (the connection is closed after the error is sent), so a
/// client cannot make the daemon buffer more than `limit` bytes.
struct ControlLineSplitter {
    /// What the stream produced.
    enum Piece: Equatable {
        /// A complete line, without its terminator.
        case line([UInt8])
        /// A line exceeded the limit; nothing more will be produced.
        case tooLong
    }

    let limit: Int
    private var buffer: [UInt8] = []
    private(set) var overflowed = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Adds received bytes and returns the pieces they complete.
    mutating func append(_ bytes: some Sequence<UInt8>) -> [Piece] {
        guard !overflowed else { return [] }
        var pieces: [Piece] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
                if !buffer.isEmpty { pieces.append(.line(buffer)) }
                buffer.removeAll(keepingCapacity: true)
            } else {
                // One byte of slack for a `\r` that the newline will remove.
                guard buffer.count < limit + 1 else {
                    overflowed = true
                    buffer = []
                    pieces.append(.tooLong)
                    return pieces
                }
                buffer.append(byte)
            }
        }
        return pieces
    }

    /// At end of stream: the unterminated last line, if any (clients that omit the final newline).
    mutating func finish() -> [Piece] {
        guard !overflowed, !buffer.isEmpty else { return [] }
        if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
        defer { buffer = [] }
        if buffer.count > limit { return [.tooLong] }
        return buffer.isEmpty ? [] : [.line(buffer)]
    }
}
