import Foundation
import Testing
import WatchPairTesting
import WatchPairWire

/// The CPU's CRC-32C instruction against the software slice-by-8 (the known vectors run through both in
/// `CRC32CTests`): chosen where the CPU has it, and equal at every length up to 1 KiB from every start
/// within a 16-byte span.
@Suite struct CRC32CHardwareTests {
    /// The process picks the instruction wherever the CPU reports SSE4.2 (Linux's `sse4_2` flag).
    @Test func hardwareChosenWhereTheCPUHasIt() throws {
        #if arch(x86_64)
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let hasSSE42 = cpuinfo.split(separator: "\n").contains {
            $0.hasPrefix("flags") && $0.split(separator: " ").contains("sse4_2")
        }
        #expect(CRC32C.implementation == (hasSSE42 ? .hardware : .software))
        #else
        #expect(CRC32C.implementation == .software)
        #endif
    }

    /// Lengths 0...1024 from starts 0..<16 (so the instruction's byte head and tail around its aligned
    /// 8-byte words take every shape), and continued checksums crossing from one path to the other.
    @Test func hardwareMatchesSoftwareAtEveryLengthAndAlignment() throws {
        try #require(CRC32C.implementation == .hardware, "this CPU has no CRC-32C instruction")
        var rng = TestRandom(seed: 14)
        let bytes = (0..<(1024 + 16)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        var mismatches: [String] = []
        bytes.withUnsafeBufferPointer { all in
            for start in 0..<16 {
                for length in 0...1024 {
                    let slice = UnsafeBufferPointer(rebasing: all[start..<(start + length)])
                    let seed = UInt32(truncatingIfNeeded: length &* 0x9E37_79B9)
                    let software = CRC32C.update(seed, with: slice, using: .software)
                    let hardware = CRC32C.update(seed, with: slice, using: .hardware)
                    if software != hardware { mismatches.append("start \(start) length \(length)") }
                }
            }
        }
        #expect(mismatches.count == 0, "first mismatches: \(mismatches.prefix(10))")
        let whole = CRC32C.update(0, with: bytes, using: .software)
        for split in stride(from: 0, through: bytes.count, by: 37) {
            let head = CRC32C.update(0, with: bytes[..<split], using: .hardware)
            #expect(CRC32C.update(head, with: bytes[split...], using: .software) == whole)
        }
    }
}
