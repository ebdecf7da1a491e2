import Testing

@testable import WatchPairCore

/// When an acknowledgement makes a `fileProgress` event, as tables: acknowledgements in, reported offsets out.
@Suite("file progress throttle")
struct FileProgressThrottleTests {
    static let mib: UInt64 = 1 << 20

    /// The acknowledgements (seq, offset) of files of `size` that the throttle reports.
    static func reported(_ acks: [(seq: UInt64, offset: UInt64)], size: UInt64) -> [UInt64] {
        var throttle = FileProgressThrottle()
        return acks.filter { throttle.shouldReport(seq: $0.seq, acknowledged: $0.offset, size: size) }.map(\.offset)
    }

    @Test("a 100 MiB file: an event per tenth since the last one, none in between, none at the end")
    func tenths() {
        let acks: [UInt64] = [0, 9, 10, 19, 21, 30, 31, 100]
        #expect(Self.reported(acks.map { (1, $0 * Self.mib) }, size: 100 * Self.mib) == [10, 21, 31].map { $0 * Self.mib })
    }

    @Test("a small file reports at most every MiB; a 100 KiB file never")
    func minimumStep() {
        let halves: [UInt64] = [1, 2, 3, 4, 5]  // in half MiBs
        #expect(Self.reported(halves.map { (1, $0 * Self.mib / 2) }, size: 3 * Self.mib) == [Self.mib, 2 * Self.mib])
        let small = stride(from: UInt64(0), through: 100 * 1024, by: 16 * 1024).map { (seq: UInt64(1), offset: $0) }
        #expect(Self.reported(small, size: 100 * 1024).isEmpty)
    }

    @Test("a new file starts afresh; a resumed one counts only advances")
    func nextFile() {
        let acks: [(seq: UInt64, offset: UInt64)] = [(1, 50 * Self.mib), (2, 10 * Self.mib), (2, 10 * Self.mib), (2, 20 * Self.mib)]
        #expect(Self.reported(acks, size: 100 * Self.mib) == [50, 10, 20].map { $0 * Self.mib })
    }
}
