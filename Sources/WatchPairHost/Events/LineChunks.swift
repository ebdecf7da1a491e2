/// Lines, each with its newline, packed in order into as few chunks of at most ``limit`` bytes as whole
/// lines allow (a longer line is a chunk of its own): the stderr writes of a batch of events. Each line
/// is written in place at the end of the chunk being filled, so a line is never a buffer of its own.
struct LineChunks {
    /// Most bytes per chunk.
    let limit: Int
    private var full: [[UInt8]] = []
    private var bytes: [UInt8] = []

    init(limit: Int) {
        self.limit = limit
    }

    /// Appends the line `write` appends (without its newline) and a newline.
    mutating func appendLine(_ write: (inout [UInt8]) -> Void) {
        let start = bytes.count
        write(&bytes)
        bytes.append(UInt8(ascii: "\n"))
        // Over the limit with lines before this one: those go out as a chunk, this line starts the next.
        if start > 0, bytes.count > limit {
            full.append(Array(bytes[..<start]))
            bytes.removeSubrange(..<start)
        }
    }

    /// The chunks, in order.
    consuming func finish() -> [[UInt8]] {
        if !bytes.isEmpty { full.append(bytes) }
        return full
    }
}
