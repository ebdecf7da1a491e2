/// When the sender reports a file's progress as a `fileProgress` event: at most every tenth of the file
/// and at most every MiB, so a 200 MiB file gives ten events and a 100 KiB file none (its `fileFinished`
/// says enough). A pure value; the file channel asks it on each acknowledgement.
struct FileProgressThrottle: Sendable, Hashable {
    /// The smallest step reported, in bytes.
    static let minimumStep: UInt64 = 1 << 20
    /// The file's size is divided into this many steps.
    static let steps: UInt64 = 10

    /// The file whose progress was last reported, and the offset reported.
    private var seq: UInt64 = 0
    private var reported: UInt64 = 0

    /// Whether `acknowledged` bytes of file `seq` (of `size`) make a progress event; records it if so.
    /// The end of a file is never one: `fileFinished` reports it.
    mutating func shouldReport(seq: UInt64, acknowledged: UInt64, size: UInt64) -> Bool {
        if seq != self.seq {
            self.seq = seq
            reported = 0
        }
        guard acknowledged < size else { return false }
        let step = max(size / Self.steps, Self.minimumStep)
        // A resumed file starts from what the receiver held: only an advance counts.
        guard acknowledged >= reported + step else { return false }
        reported = acknowledged
        return true
    }
}
