import Glibc

/// The raw ping-pong's far end: wcbench re-executed as `_echo` on one end of a socketpair.
///
/// Used by the baseline (the machine's socket round trip) and by the growth section (the same round trip
/// per payload size, next to the daemons' curve) and, idle, as the memory floor of a process on the same
/// Swift runtime.
final class EchoPeer {
    /// The echo process.
    let process: ChildProcess
    /// wcbench's end of the socketpair.
    let descriptor: Int32

    /// Starts `wcbench _echo` with the other end of a new socketpair as its descriptor 3.
    init(_ context: BenchContext) throws(BenchError) {
        let (mine, theirs) = try UnixSockets.pair()
        defer { close(theirs) }
        do throws(BenchError) {
            process = try ChildProcess.spawn(
                context.binaries.wcbench, ["_echo"], name: "echo", environment: ChildProcess.environment(),
                output: "\(context.runDirectory)/echo.log", keep: [(theirs, 3)])
        } catch {
            close(mine)
            throw error
        }
        descriptor = mine
    }

    /// Round trips of `size` bytes, one at a time: each is one `write` and reads until the payload is
    /// back (no framing). The first `warmup` are not recorded.
    func roundTrips(size: Int, warmup: Int, count: Int) throws(BenchError) -> LatencySummary {
        var buffer = [UInt8](repeating: 0x61, count: size)
        var recorder = LatencyRecorder()
        let fd = descriptor
        let ok = buffer.withUnsafeMutableBytes { raw -> Bool in
            for index in 0..<(warmup + count) {
                let start = Monotonic.now()
                guard UnixSockets.writeExactly(fd, raw.baseAddress!, size),
                    UnixSockets.readExactly(fd, raw.baseAddress!, size)
                else { return false }
                if index >= warmup { recorder.record(nanoseconds: Monotonic.now() - start) }
            }
            return true
        }
        guard ok else { throw BenchError("the echo process went away") }
        return recorder.summary
    }

    /// Closes the socket (the echo process then exits) and reaps the process.
    func stop() {
        close(descriptor)
        process.stop()
    }
}
