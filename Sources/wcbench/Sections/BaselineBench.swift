import Glibc

/// Section 1: this machine's limits, measured in the same run as everything else.
///
/// - Ping-pong: wcbench re-executes itself as an echo process (`_echo`) on one end of a socketpair and
///   bounces 64 B and 1 KiB payloads with no framing at all: each round trip is one `write` and reads
///   until the payload is back. Then the same round trips through two relaying processes that do no
///   work (the relay floor, `BaselineBench+Relay.swift`), and the 64 B payloads with 64 in flight.
/// - Thread hand-off: a block to a serial `DispatchQueue` and back through a semaphore (two wake-ups,
///   `BaselineBench+HandOff.swift`).
/// - fdatasync: 4 KiB `pwrite` + `fdatasync` in a file next to the daemons' state directories, over a
///   preallocated 1 MiB region (no size change, so no metadata commit: the fastest durable write this
///   file system offers). Appending writes are measured too, for reference; then two writers at once, one
///   file each (`BaselineBench+TwoWriters.swift`), as the two daemons' stores write.
struct BaselineBench {
    let context: BenchContext
    /// The 4 KiB blocks an fdatasync file is preallocated with (1 MiB), which its overwrites cycle through.
    static let fdatasyncRegion = 256

    func run() throws(BenchError) {
        for size in [64, 1024] { try pingPong(size: size) }
        for size in [64, 1024] {
            for loop in RelayLoop.allCases { try relayFloor(size: size, loop: loop) }
        }
        try pipelined(size: 64)
        handOff()
        try fdatasync()
        try twoWriters()
    }

    private func pingPong(size: Int) throws(BenchError) {
        context.progress("baseline: raw ping-pong, \(size) B")
        let echo = try EchoPeer(context)
        defer { echo.stop() }
        let summary = try echo.roundTrips(size: size, warmup: context.counts.pingPongWarmup, count: context.counts.pingPong)
        context.baselines.pingPong[size] = summary
        context.report.addLatency("baseline", "baseline.pingPong.\(size)B", "raw ping-pong round trip, \(Self.sizeName(size))", summary)
    }

    private func pipelined(size: Int) throws(BenchError) {
        context.progress("baseline: raw ping-pong, 64 in flight")
        let echo = try EchoPeer(context)
        defer { echo.stop() }
        let fd = echo.descriptor
        let total = context.counts.pingPongPipelined
        let window = 64
        let message = [UInt8](repeating: 0x62, count: size)
        var incoming = [UInt8](repeating: 0, count: 64 * 1024)
        var sent = 0
        var receivedBytes = 0
        let start = Monotonic.now()
        while sent < min(window, total) {
            guard message.withUnsafeBytes({ UnixSockets.writeExactly(fd, $0.baseAddress!, size) }) else {
                throw BenchError("the echo process went away")
            }
            sent += 1
        }
        while receivedBytes < total * size {
            let n = incoming.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            guard n > 0 else { throw BenchError("the echo process went away") }
            receivedBytes += n
            // Keep `window` messages in flight: one new message per one completed.
            while sent < total, sent - receivedBytes / size < window {
                guard message.withUnsafeBytes({ UnixSockets.writeExactly(fd, $0.baseAddress!, size) }) else {
                    throw BenchError("the echo process went away")
                }
                sent += 1
            }
        }
        let rate = Double(total) / Monotonic.seconds(start, Monotonic.now())
        context.baselines.pipelinedRate = rate
        context.report.add("baseline", "baseline.pingPong.pipelined.64B.rate", "raw ping-pong, 64 B, 64 in flight", rate, "/s")
    }

    private func fdatasync() throws(BenchError) {
        context.progress("baseline: write + fdatasync")
        let path = "\(context.runDirectory)/fdatasync.dat"
        defer { unlink(path) }
        let fd = try Self.preallocated(path)
        defer { close(fd) }
        let block = [UInt8](repeating: 0x63, count: 4096)
        let region = Self.fdatasyncRegion

        var recorder = LatencyRecorder()
        let count = context.counts.fdatasyncs
        let start = Monotonic.now()
        for index in 0..<count {
            let begin = Monotonic.now()
            guard pwrite(fd, block, 4096, off_t((index % region) * 4096)) == 4096 else {
                throw BenchError.system("pwrite \(path)", errno: errno)
            }
            guard Glibc.fdatasync(fd) == 0 else { throw BenchError.system("fdatasync \(path)", errno: errno) }
            recorder.record(nanoseconds: Monotonic.now() - begin)
        }
        let rate = Double(count) / Monotonic.seconds(start, Monotonic.now())
        context.baselines.fdatasyncRate = rate
        context.report.add("baseline", "baseline.fdatasync.rate", "write 4 KiB + fdatasync (overwrite)", rate, "/s")
        context.report.addLatency("baseline", "baseline.fdatasync.latency", "write 4 KiB + fdatasync", recorder.summary)

        // Appending changes the file size, which adds a journal commit to every fdatasync.
        let appends = max(count / 4, 20)
        let appendStart = Monotonic.now()
        for index in 0..<appends {
            guard pwrite(fd, block, 4096, off_t((region + index) * 4096)) == 4096 else {
                throw BenchError.system("pwrite \(path)", errno: errno)
            }
            guard Glibc.fdatasync(fd) == 0 else { throw BenchError.system("fdatasync \(path)", errno: errno) }
        }
        let appendRate = Double(appends) / Monotonic.seconds(appendStart, Monotonic.now())
        context.report.add("baseline", "baseline.fdatasync.append.rate", "write 4 KiB + fdatasync (append)", appendRate, "/s")
    }

    static func sizeName(_ size: Int) -> String { size >= 1024 ? "\(size / 1024) KiB" : "\(size) B" }
}
