import WatchPairWire

/// Section 5: a backlog delivered when the receiver comes back.
///
/// A linked pair (power durability); watchd is stopped (SIGTERM); N transfers are queued at phoned
/// (64 in flight); then watchd is started directly and the receiving app attaches as soon as its control
/// socket answers. Measured: from starting watchd to all N delivered to the app (and to its control
/// socket answering, and to the first delivery), plus the queue's size on disk per transfer.
struct DrainBench {
    let context: BenchContext

    func run() throws(BenchError) {
        let pair = try context.makePair()
        defer { pair.stopAll() }
        try pair.start(.watch)
        try pair.start(.phone)
        let deadline = context.phaseDeadline()
        let sender = try UserInfoSender(pair.controlPath(.phone), payloadBytes: UserInfoBench.payloadBytes, deadline: deadline)
        let finished = try FinishedApp.attach(pair.controlPath(.phone), deadline: deadline)
        do {
            let app = try UserInfoApp.attach(pair.controlPath(.watch), deadline: deadline)
            _ = try TransferPump.run(sender: sender, app: app, finished: finished, count: 20, window: 1, deadline: deadline)
            try app.settleAcks(deadline: deadline)
            try finished.settle(count: sender.accepted, deadline: deadline)
        }
        try pair.waitUntilNothingOutstanding(deadline: deadline)
        try pair.stop(.watch)

        let count = context.counts.drain
        context.progress("drain: queueing \(count) transfers with watchd stopped")
        let diskBefore = ProcessStats.diskUsage(of: pair.statePath(.phone))
        let queued = try TransferPump.run(sender: sender, app: nil, count: count, window: 64, deadline: context.phaseDeadline())
        let diskAfter = ProcessStats.diskUsage(of: pair.statePath(.phone))

        context.progress("drain: starting watchd")
        let start = Monotonic.now()
        try pair.spawn(.watch)
        let app = try UserInfoApp.attach(pair.controlPath(.watch), deadline: context.phaseDeadline())
        let attached = Monotonic.now()
        try TransferPump.receive(app: app, count: count, deadline: context.phaseDeadline())
        let end = app.lastDeliveredAt
        try app.settleAcks(deadline: context.phaseDeadline())
        try finished.settle(count: sender.accepted, deadline: context.phaseDeadline())

        let report = context.report
        let seconds = Monotonic.seconds(start, end)
        let target = count == 10_000 ? Target(comparison: "<", limit: 1000, text: "< 1 s for 10,000") : nil
        report.add(
            "drain", "drain.total", "\(ReportTable.grouped(Double(count))) queued: watchd start → all delivered",
            seconds * 1000, "ms", target: target,
            note: target == nil ? "target applies to 10,000 (full run)" : nil)
        report.add("drain", "drain.rate", "delivery rate while draining", Double(count) / Monotonic.seconds(app.firstDeliveredAt ?? start, end), "/s")
        report.add("drain", "drain.controlUp", "watchd start → app attached (control socket up)", Monotonic.seconds(start, attached) * 1000, "ms")
        report.add(
            "drain", "drain.firstDelivered", "watchd start → first delivered",
            Monotonic.seconds(start, app.firstDeliveredAt ?? end) * 1000, "ms")
        report.add("drain", "drain.queueRate", "queued at phoned with watchd stopped (64 in flight)", queued.acceptRate, "/s")
        report.add(
            "drain", "drain.diskPerQueued", "phoned store growth per queued transfer",
            Double(diskAfter - diskBefore) / Double(count), "B",
            note: "st_blocks of the state directory, before and after queueing")
        try pair.waitUntilNothingOutstanding(deadline: context.phaseDeadline())
        context.noteStalls(of: finished, in: "drain")
        for failure in pair.stopAll() { throw failure }
    }
}
