import Foundation
import WatchPairWire

/// Section 3: userInfo end to end, accepted at phoned → delivered to the app on watchd.
///
/// For each durability (`power`, `process`) a fresh pair runs one sequential client (each `transfer`
/// waits for its response before the next) and then 64 in flight. Reported: transfers per second from
/// the first request to the last delivery, accept latency, send-to-delivery latency, and per transfer:
/// fsyncs (perf), store commits and reads (when `status` reports them), bytes written to storage and CPU
/// time, summed over both daemons. Payload: `{"n": n, "p": 64 × "x"}`. The sending app acknowledges
/// `didFinish` notices as it goes (``FinishedApp``), as a `WCSession` app does; the window of a
/// measurement closes when both apps have acknowledged everything, so that work is counted too.
struct UserInfoBench {
    let context: BenchContext
    static let payloadBytes = 64

    func run() throws(BenchError) {
        var failures: [String] = []
        for durability in ["power", "process"] {
            do throws(BenchError) {
                try run(durability: durability)
            } catch {
                failures.append("\(durability): \(error)")
            }
        }
        if !failures.isEmpty { throw BenchError(failures.joined(separator: "; ")) }
    }

    private func run(durability: String) throws(BenchError) {
        let pair = try context.makePair(durability: durability)
        defer { pair.stopAll() }
        try pair.start(.watch)
        try pair.start(.phone)
        let deadline = context.phaseDeadline()
        let app = try UserInfoApp.attach(pair.controlPath(.watch), deadline: deadline)
        let sender = try UserInfoSender(pair.controlPath(.phone), payloadBytes: Self.payloadBytes, deadline: deadline)
        let finished = try FinishedApp.attach(pair.controlPath(.phone), deadline: deadline)
        // Warm-up: links the pair and warms both stores.
        _ = try TransferPump.run(sender: sender, app: app, finished: finished, count: 50, window: 1, deadline: deadline)
        try finished.settle(count: sender.accepted, deadline: deadline)

        for (mode, count, window) in [("sequential", context.counts.userInfoSequential, 1), ("64 in flight", context.counts.userInfoParallel, 64)] {
            context.progress("userInfo: \(durability), \(mode), \(count) transfers")
            let meter = try PairMeter(
                pair: pair, perf: context.binaries.perf, name: "userInfo-\(durability)-\(window == 1 ? "sequential" : "inflight\(window)")",
                profiling: context.profiling)
            sender.accept = LatencyRecorder()
            try meter.begin()
            let outcome = try TransferPump.run(
                sender: sender, app: app, finished: finished, count: count, window: window, deadline: context.phaseDeadline())
            // The window closes once the apps have acknowledged everything, so the work of finishing these
            // transfers is counted with them.
            try app.settleAcks(deadline: context.phaseDeadline())
            try finished.settle(count: sender.accepted, deadline: context.phaseDeadline())
            let usage = try meter.end()
            record(
                durability: durability, mode: mode, window: window, outcome: outcome, usage: usage,
                accept: sender.accept.summary, delivery: outcome.deliveryLatency(sender: sender, app: app).summary,
                fsyncProblem: meter.fsyncProblem)
        }
        context.noteStalls(of: finished, in: "userInfo")
        if durability == "power" { try acceptAlone(pair: pair, sender: sender) }
        for failure in pair.stopAll() { throw failure }
    }

    /// Accept latency with nothing behind it: watchd stopped, so no delivery, acknowledgement or didFinish
    /// runs beside the accepts; the sequential accept's own path (a control round trip, one commit and its
    /// fsync). What the sequential run adds to it is the pipeline behind each transfer competing for the CPUs.
    private func acceptAlone(pair: DaemonPair, sender: UserInfoSender) throws(BenchError) {
        try pair.stop(.watch)
        sender.accept = LatencyRecorder()
        let deadline = context.phaseDeadline()
        for _ in 0..<min(1_000, context.counts.userInfoSequential) {
            try sender.send()
            while sender.pending > 0 {
                guard try Poller.waitReadable([sender.connection], deadline: deadline) else {
                    throw BenchError("userInfo: no accept within the deadline with watchd stopped")
                }
                try sender.process()
            }
        }
        let alone = sender.accept.summary
        context.report.add(
            "userInfo", "userInfo.power.sequential.acceptAlone.p50", "power, sequential: accept latency p50, watchd stopped",
            alone.p50, "us", note: "the accept's own path: nothing runs behind it")
    }

    private func record(
        durability: String, mode: String, window: Int, outcome: TransferPump.Outcome, usage: PairMeter.Usage,
        accept: LatencySummary, delivery: LatencySummary, fsyncProblem: String?
    ) {
        let report = context.report
        let key = "userInfo.\(durability).\(window == 1 ? "sequential" : "inflight\(window)")"
        let label = "\(durability), \(mode)"
        let count = Double(outcome.count)
        var target: Target?
        var ratio: Ratio?
        // Issue 15's targets.
        var acceptTarget: Target?
        if durability == "power", window == 64 {
            target = Target(comparison: ">=", limit: 25_000, text: "≥ 25,000/s")
        }
        if durability == "power", window == 1 {
            target = Target(comparison: ">=", limit: 3_000, text: "≥ 3,000/s")
            if let rate = context.baselines.fdatasyncRate, let pingPong = context.baselines.pingPong[64]?.p50 {
                // One fdatasync takes 1/rate on average; the accept path's floor is a round trip and one.
                acceptTarget = Target(
                    comparison: "<=", limit: 2 * (pingPong + 1e6 / rate), text: "≤ 2× (ping-pong p50 + fdatasync)")
            }
        }
        if let rate = context.baselines.fdatasyncRate {
            ratio = Ratio(factor: outcome.endToEndRate / rate, baseline: "raw fdatasync rate", baselineValue: rate)
        }
        report.add("userInfo", "\(key).rate", "\(label): end to end", outcome.endToEndRate, "/s", target: target, ratio: ratio)
        report.add("userInfo", "\(key).acceptRate", "\(label): accepted", outcome.acceptRate, "/s", detail: true)
        report.add("userInfo", "\(key).accept.p50", "\(label): accept latency p50", accept.p50, "us", target: acceptTarget)
        report.add("userInfo", "\(key).accept.p99", "\(label): accept latency p99", accept.p99, "us")
        report.add("userInfo", "\(key).accept.p999", "\(label): accept latency p99.9", accept.p999, "us", detail: true)
        report.add("userInfo", "\(key).delivery.p50", "\(label): send → delivered p50", delivery.p50, "us")
        report.add("userInfo", "\(key).delivery.p99", "\(label): send → delivered p99", delivery.p99, "us", detail: true)
        if let fsyncs = usage.totalFsyncs {
            report.add(
                "userInfo", "\(key).fsyncsPerTransfer", "\(label): fsyncs per transfer (both daemons)",
                Double(fsyncs) / count, "", note: "perf: fsync+fdatasync of phoned \(usage.fsyncs![.phone]!), watchd \(usage.fsyncs![.watch]!)")
            for role in Role.allCases {
                report.add(
                    "userInfo", "\(key).fsyncsPerTransfer.\(role.daemonName)", "\(label): fsyncs per transfer, \(role.daemonName)",
                    Double(usage.fsyncs![role]!) / count, "", detail: true)
            }
        } else {
            report.add("userInfo", "\(key).fsyncsPerTransfer", "\(label): fsyncs per transfer", nil, "", note: fsyncProblem ?? "unavailable")
        }
        if durability == "power", let fsyncs = usage.totalFsyncs, fsyncs > 0, let together = context.baselines.fdatasyncTwoWritersTotal {
            // The disk's side of the ceiling: both daemons' fsyncs share one device, whose rate for two writers
            // at once the baseline measured.
            report.add(
                "userInfo", "\(key).fsyncCeiling", "\(label): fsync ceiling (two writers' fdatasync rate ÷ fsyncs per transfer)",
                together / (Double(fsyncs) / count), "/s",
                note: "this many fsyncs per transfer at the rate two writers at once got in the baseline")
        }
        if let switches = usage.totalContextSwitches {
            report.add(
                "userInfo", "\(key).contextSwitchesPerTransfer", "\(label): context switches per transfer (both daemons)",
                Double(switches) / count, "", note: "perf: phoned \(usage.contextSwitches![.phone]!), watchd \(usage.contextSwitches![.watch]!)")
        }
        for (field, name, title) in [("storeCommits", "commitsPerTransfer", "store commits"), ("storeReads", "readsPerTransfer", "store reads")] {
            if let total = usage.total(field) {
                report.add("userInfo", "\(key).\(name)", "\(label): \(title) per transfer", Double(total) / count, "")
            } else {
                report.add(
                    "userInfo", "\(key).\(name)", "\(label): \(title) per transfer", nil, "",
                    note: "status has no \(field)", detail: true)
            }
        }
        report.add(
            "userInfo", "\(key).storageBytesPerTransfer", "\(label): bytes written to storage per transfer",
            Double(usage.totalWriteBytes) / count, "B")
        report.add(
            "userInfo", "\(key).cpuPerTransfer", "\(label): daemon CPU per transfer",
            usage.totalCPU / count * 1e6, "us")
        // The floor a rate target meets first on a small machine: every transfer needs this much CPU, so no
        // overlap of the pipeline's steps gets more transfers a second out of the CPUs than this.
        let cpuPerTransfer = (usage.totalCPU + usage.clientCPUSeconds) / count
        report.add(
            "userInfo", "\(key).clientCPUPerTransfer", "\(label): bench clients' CPU per transfer",
            usage.clientCPUSeconds / count * 1e6, "us", detail: true)
        report.add(
            "userInfo", "\(key).cpuCeiling", "\(label): CPU ceiling (CPUs ÷ CPU per transfer, daemons and clients)",
            cpuPerTransfer > 0 ? Double(ProcessInfo.processInfo.activeProcessorCount) / cpuPerTransfer : nil, "/s",
            note: "no schedule of this work runs faster on \(ProcessInfo.processInfo.activeProcessorCount) CPUs")
        for role in Role.allCases {
            report.add(
                "userInfo", "\(key).cpuPerTransfer.\(role.daemonName)", "\(label): CPU per transfer, \(role.daemonName)",
                (usage.cpuSeconds[role] ?? 0) / count * 1e6, "us", detail: true)
            report.add(
                "userInfo", "\(key).storageBytesPerTransfer.\(role.daemonName)", "\(label): storage bytes per transfer, \(role.daemonName)",
                Double(usage.storageWriteBytes[role] ?? 0) / count, "B", detail: true)
        }
    }
}
