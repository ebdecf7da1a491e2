/// How much work each section does: the full counts for published numbers, small ones for `--quick`.
///
/// `--quick` exists so CI can run every section on every change (the benchmark never rots); its numbers
/// are noisy and the count-dependent targets (drain of 10,000, memory after 100,000) are not judged.
struct Counts: Codable, Sendable {
    /// Round trips per payload size for the raw ping-pong, and the warm-up before each.
    var pingPong: Int
    var pingPongWarmup: Int
    /// Messages for the raw pipelined (64 in flight) rate.
    var pingPongPipelined: Int
    /// write + fdatasync iterations.
    var fdatasyncs: Int
    /// Message round trips per payload size (auto-reply), and with the app answering.
    var messageRoundTrips: Int
    var messageAppAnswers: Int
    var messageWarmup: Int
    /// Messages for the 64-in-flight rate.
    var messageThroughput: Int
    /// userInfo transfers, one at a time and 64 in flight.
    var userInfoSequential: Int
    var userInfoParallel: Int
    /// Context updates waited for one by one, and sent 64 in flight.
    var contextPropagation: Int
    var contextBurst: Int
    /// Transfers queued while the receiver is stopped.
    var drain: Int
    /// Socket-activated launches (each for watchd and for the trivial program).
    var coldLaunches: Int
    /// Transfers passed through before the second memory reading.
    var memoryTransfers: Int
    /// Seconds a daemon is left alone before its memory is read.
    var settleSeconds: Double
    /// Round trips of each kind in the layer section (raw `WCSession` and typed request; the wcmodule
    /// section measures as many), and the requests queued for its flush.
    var layerRoundTrips: Int
    var layerQueued: Int

    /// The counts behind BENCHMARKS.md.
    static let full = Counts(
        pingPong: 50_000, pingPongWarmup: 2_000, pingPongPipelined: 200_000, fdatasyncs: 2_000,
        messageRoundTrips: 10_000, messageAppAnswers: 5_000, messageWarmup: 500, messageThroughput: 50_000,
        userInfoSequential: 2_000, userInfoParallel: 50_000,
        contextPropagation: 1_000, contextBurst: 20_000,
        drain: 10_000, coldLaunches: 20, memoryTransfers: 100_000, settleSeconds: 1,
        layerRoundTrips: 5_000, layerQueued: 1_000)

    /// Small counts: every section runs, in well under a minute.
    static let quick = Counts(
        pingPong: 2_000, pingPongWarmup: 200, pingPongPipelined: 10_000, fdatasyncs: 100,
        messageRoundTrips: 300, messageAppAnswers: 200, messageWarmup: 50, messageThroughput: 2_000,
        userInfoSequential: 100, userInfoParallel: 1_000,
        contextPropagation: 50, contextBurst: 500,
        drain: 1_000, coldLaunches: 3, memoryTransfers: 2_000, settleSeconds: 0.3,
        layerRoundTrips: 200, layerQueued: 100)
}
