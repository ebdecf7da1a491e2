import WatchPairWire

/// Section 7: resident memory of each daemon, idle and after a stream of transfers.
///
/// Idle: both started (power durability), left alone `settleSeconds`, not yet linked; RSS, and what it is
/// made of (``MemoryMap``), next to an idle process on the same runtime (wcbench `_echo`). Then N transfers
/// pass through (64 in flight, both apps acknowledging), phoned confirms none is outstanding, the client
/// connections close, the daemons are left alone again, and their RSS (`VmRSS`) and peak RSS (`VmHWM`)
/// are read.
struct MemoryBench {
    let context: BenchContext

    func run() throws(BenchError) {
        let pair = try context.makePair()
        defer { pair.stopAll() }
        try pair.start(.watch)
        try pair.start(.phone)
        Monotonic.sleep(seconds: context.counts.settleSeconds)
        let report = context.report
        let mib = Double(1 << 20)
        let floorMiB = Double(try idleSwiftProcess().rssKiB) / 1024
        for role in Role.allCases {
            let stats = try pair.stats(role)
            report.add(
                "memory", "memory.idle.\(role.daemonName)", "\(role.daemonName) RSS, idle", Double(stats.rssBytes) / mib, "MiB",
                target: Target(comparison: "<=", limit: 28, text: "≤ 28 MiB"),
                ratio: Ratio(factor: Double(stats.rssBytes) / mib / floorMiB, baseline: "idle Swift process", baselineValue: floorMiB))
            try recordBreakdown(role, pid: try pair.process(role).pid)
        }

        let count = context.counts.memoryTransfers
        context.progress("memory: \(count) transfers through the pair")
        let deadline = context.phaseDeadline()
        do {
            let app = try UserInfoApp.attach(pair.controlPath(.watch), deadline: deadline)
            let sender = try UserInfoSender(pair.controlPath(.phone), payloadBytes: UserInfoBench.payloadBytes, deadline: deadline)
            let finished = try FinishedApp.attach(pair.controlPath(.phone), deadline: deadline)
            let outcome = try TransferPump.run(
                sender: sender, app: app, finished: finished, count: count, window: 64,
                deadline: Monotonic.deadline(seconds: context.phaseTimeout * 2))
            try app.settleAcks(deadline: context.phaseDeadline())
            try finished.settle(count: sender.accepted, deadline: context.phaseDeadline())
            report.add("memory", "memory.transfers.rate", "end-to-end rate of those transfers", outcome.endToEndRate, "/s", detail: true)
            try pair.waitUntilNothingOutstanding(deadline: context.phaseDeadline())
            app.connection.shutdownWrite()
            context.noteStalls(of: finished, in: "memory")
            finished.connection.shutdownWrite()
            sender.connection.shutdownWrite()
        }
        Monotonic.sleep(seconds: context.counts.settleSeconds)
        let target = count == 100_000 ? Target(comparison: "<", limit: 48, text: "< 48 MiB") : nil
        let countText = ReportTable.grouped(Double(count))
        for role in Role.allCases {
            let stats = try pair.stats(role)
            report.add(
                "memory", "memory.after.\(role.daemonName)", "\(role.daemonName) RSS, after \(countText) transfers",
                Double(stats.rssBytes) / mib, "MiB", target: target,
                note: target == nil ? "target applies to 100,000 (full run)" : nil)
            report.add(
                "memory", "memory.peak.\(role.daemonName)", "\(role.daemonName) peak RSS (VmHWM)",
                Double(stats.peakRSSBytes) / mib, "MiB")
        }
        for failure in pair.stopAll() { throw failure }
    }
}
