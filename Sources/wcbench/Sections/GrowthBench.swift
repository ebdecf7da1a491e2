import WatchPairWire

/// Section `growth`: how the cost of one transfer grows with the backlog behind it and with its payload
/// (issue 15: flat per transfer from 1k to 1M queued; linear in payload size).
///
/// **Depth.** One pair (power durability; phoned's outbox bound raised above the deepest backlog). For each
/// depth N (1k, 10k, 100k, 1M, up to `--growth-max`), starting from an empty outbox: watchd is stopped;
/// N − `probe` transfers are queued at phoned (64 in flight, not measured); then `probe` more are queued
/// and measured (wall time, phoned's CPU and the bytes it wrote to storage per transfer at depth N), then
/// `sequentialProbe` one at a time (accept latency on top of N). watchd is then started directly and the
/// whole backlog drains to the app: delivery rate and both daemons' CPU per delivered transfer, from the
/// first delivery on (watchd's start-up is not a per-transfer cost).
///
/// **Payload.** On the same pair, both apps running, for each encoded payload size (64 B … 64 KiB):
/// transfers one at a time (send → the app holds it, and accept latency), then 64 in flight (wall, both
/// daemons' CPU and bytes written per transfer), next to the raw ping-pong round trip of the same size.
///
/// Both curves are printed as tables and charts with their least-squares fit (per tenfold depth, per
/// byte); wcbench judges no target here, the table says how flat and how linear they are.
struct GrowthBench {
    let context: BenchContext
    /// The deepest backlog measured (`--growth-max`).
    let maxDepth: Int

    /// The work of one run.
    struct Plan {
        var depths: [Int]
        /// Transfers measured at each depth, 64 in flight (all of a smaller depth), and then one at a time.
        /// 5,000 in a full run: CPU comes from /proc in 10 ms ticks, so that reads ±2 µs per transfer.
        var probe: Int
        var sequentialProbe: Int
        /// Encoded payload sizes (bytes), and the transfers per size one at a time and 64 in flight.
        var sizes: [Int]
        var sizeSequential: Int
        var sizeParallel: Int
        /// Raw ping-pong round trips per size.
        var rawRoundTrips: Int
    }

    /// The plan for a full run (depths up to `maxDepth`) or a `--quick` one (two small depths, three sizes).
    static func plan(quick: Bool, maxDepth: Int) -> Plan {
        if quick {
            return Plan(
                depths: [500, 2_000].filter { $0 <= maxDepth }, probe: 200, sequentialProbe: 20,
                sizes: [64, 4_096, 65_536], sizeSequential: 20, sizeParallel: 100, rawRoundTrips: 500)
        }
        return Plan(
            depths: [1_000, 10_000, 100_000, 1_000_000].filter { $0 <= maxDepth }, probe: 5_000, sequentialProbe: 200,
            sizes: [64, 256, 1_024, 4_096, 16_384, 65_536], sizeSequential: 300, sizeParallel: 2_000, rawRoundTrips: 5_000)
    }

    func run() throws(BenchError) {
        let plan = Self.plan(quick: context.quick, maxDepth: maxDepth)
        let deepest = plan.depths.max() ?? 0
        let pair = try context.makePair(extra: ["queues": "{\"outbox\": \(deepest + plan.probe + plan.sequentialProbe + 1_000)}"])
        defer { pair.stopAll() }
        try pair.start(.watch)
        try pair.start(.phone)
        let deadline = context.phaseDeadline()
        var apps = try GrowthApps(pair: pair, deadline: deadline)
        try apps.warmUp(deadline: deadline)

        var depthRows: [DepthRow] = []
        for depth in plan.depths {
            depthRows.append(try measure(depth: depth, plan: plan, pair: pair, apps: &apps))
        }
        recordDepths(depthRows)

        var sizeRows: [SizeRow] = []
        for size in plan.sizes {
            sizeRows.append(try measure(size: size, plan: plan, pair: pair, apps: &apps))
        }
        recordSizes(sizeRows)
        context.noteStalls(of: apps.finished, in: "growth")
        for failure in pair.stopAll() { throw failure }
    }

    /// Time allowed to queue or drain `count` transfers: the phase timeout plus 2 ms per transfer, so
    /// 1M on a loaded machine is not cut off while a hung daemon still is.
    func deadline(for count: Int) -> UInt64 {
        Monotonic.deadline(seconds: context.phaseTimeout + Double(count) * 0.002 * context.binaries.slowdown)
    }
}

/// The apps of the growth section's pair: phoned's sender and didFinish handler, watchd's receiving app
/// (re-attached after each restart of watchd).
struct GrowthApps {
    var sender: UserInfoSender
    let finished: FinishedApp
    var app: UserInfoApp

    init(pair: DaemonPair, deadline: UInt64) throws(BenchError) {
        sender = try UserInfoSender(pair.controlPath(.phone), payloadBytes: UserInfoBench.payloadBytes, deadline: deadline)
        finished = try FinishedApp.attach(pair.controlPath(.phone), deadline: deadline)
        app = try UserInfoApp.attach(pair.controlPath(.watch), deadline: deadline)
    }

    /// Links the pair and warms both stores (20 transfers, one at a time).
    func warmUp(deadline: UInt64) throws(BenchError) {
        _ = try TransferPump.run(sender: sender, app: app, finished: finished, count: 20, window: 1, deadline: deadline)
        try app.settleAcks(deadline: deadline)
        try finished.settle(count: sender.accepted, deadline: deadline)
    }

    /// Waits until both apps have acknowledged everything and phoned has nothing outstanding.
    func settle(pair: DaemonPair, deadline: UInt64) throws(BenchError) {
        try app.settleAcks(deadline: deadline)
        try finished.settle(count: sender.accepted, deadline: deadline)
        try pair.waitUntilNothingOutstanding(deadline: deadline)
    }
}
