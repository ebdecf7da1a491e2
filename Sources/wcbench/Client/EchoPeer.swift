import Glibc

/// The raw ping-pong's far end: wcbench re-executed as `_echo` on one end of a socketpair.
///
/// Used by the baseline (the machine's socket round trip) and by the growth section (the same round trip
/// per payload size, next to the daemons' curve) and, idle, as the memory floor of a process on the same
/// Swift runtime. Its round trips: ``RawRoundTripPeer/roundTrips(size:warmup:count:)``.
final class EchoPeer: RawRoundTripPeer {
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

    /// Closes the socket (the echo process then exits) and reaps the process.
    func stop() {
        close(descriptor)
        process.stop()
    }
}
