import WatchPairWire

// The depth curve: the cost of queueing one more transfer behind N, and of draining N.
extension GrowthBench {
    /// What one depth measured.
    struct DepthRow {
        var depth: Int
        /// Wall time and phoned's CPU per transfer queued at this depth, 64 in flight (µs).
        var enqueueWall: Double
        var enqueueCPU: Double
        /// Bytes phoned caused to be written to storage per transfer queued (its WAL and checkpoints).
        var enqueueBytes: Double
        /// Accept latency of transfers queued one at a time on top of it (µs).
        var accept: LatencySummary
        /// phoned's resident memory at this depth (MiB).
        var rssMiB: Double
        /// Delivery rate of the whole backlog once watchd starts, and both daemons' CPU per delivered
        /// transfer (µs), both from the first delivery on.
        var drainRate: Double
        var drainCPU: Double
    }

    /// Queues `depth` transfers with watchd stopped, measures the last of them, then drains them all.
    func measure(depth: Int, plan: Plan, pair: DaemonPair, apps: inout GrowthApps) throws(BenchError) -> DepthRow {
        try pair.stop(.watch)
        let sender = apps.sender
        let fill = max(depth - plan.probe, 0)
        context.progress("growth: queueing \(ReportTable.grouped(Double(depth))) transfers with watchd stopped")
        if fill > 0 {
            _ = try TransferPump.run(sender: sender, app: nil, count: fill, window: 64, deadline: deadline(for: fill))
        }
        let before = try pair.stats(.phone)
        let probe = try TransferPump.run(
            sender: sender, app: nil, count: depth - fill, window: 64, deadline: deadline(for: depth - fill))
        let after = try pair.stats(.phone)
        sender.accept = LatencyRecorder()
        _ = try TransferPump.run(
            sender: sender, app: nil, count: plan.sequentialProbe, window: 1, deadline: deadline(for: plan.sequentialProbe))
        let accept = sender.accept.summary
        let rss = Double(try pair.stats(.phone).rssBytes) / Double(1 << 20)

        let backlog = depth + plan.sequentialProbe
        context.progress("growth: starting watchd, draining \(ReportTable.grouped(Double(backlog)))")
        try pair.spawn(.watch)
        apps.app = try UserInfoApp.attach(pair.controlPath(.watch), deadline: context.phaseDeadline())
        let drain = try self.drain(backlog, pair: pair, apps: apps)
        return DepthRow(
            depth: depth, enqueueWall: 1e6 / probe.acceptRate,
            enqueueCPU: (after.cpuSeconds - before.cpuSeconds) / Double(probe.count) * 1e6,
            enqueueBytes: Double(after.storageWriteBytes - before.storageWriteBytes) / Double(probe.count),
            accept: accept, rssMiB: rss, drainRate: drain.rate, drainCPU: drain.cpu)
    }

    /// Serves the app and the didFinish stream until `count` more transfers reached the app and both apps
    /// acknowledged everything. The rate is from the first delivery to the last; the CPU of both daemons
    /// is from the read that brought the first delivery to the end of the settling, per transfer
    /// delivered after that read.
    private func drain(_ count: Int, pair: DaemonPair, apps: GrowthApps) throws(BenchError) -> (rate: Double, cpu: Double) {
        let app = apps.app
        let start = app.delivered
        let deadline = deadline(for: count)
        var first: (delivered: Int, cpuSeconds: Double)?
        while app.delivered < start + count {
            let ready = try Poller.readable([app.connection, apps.finished.connection], deadline: deadline)
            guard !ready.isEmpty else {
                throw BenchError("timed out draining: \(app.delivered - start) of \(count) delivered")
            }
            for index in ready {
                if index == 0 { try app.process() } else { try apps.finished.process() }
            }
            if first == nil, app.delivered > start { first = (app.delivered, try cpuSeconds(pair)) }
        }
        try apps.settle(pair: pair, deadline: deadline)
        let spent = try cpuSeconds(pair) - (first?.cpuSeconds ?? 0)
        let measured = max(start + count - (first?.delivered ?? start), 1)
        let rate = Double(count) / Monotonic.seconds(app.firstDeliveredAt ?? 0, app.lastDeliveredAt)
        return (rate, spent / Double(measured) * 1e6)
    }

    private func cpuSeconds(_ pair: DaemonPair) throws(BenchError) -> Double {
        try pair.stats(.phone).cpuSeconds + pair.stats(.watch).cpuSeconds
    }

    /// The depth rows, their growth from the smallest to the deepest, and the charts.
    func recordDepths(_ rows: [DepthRow]) {
        let report = context.report
        for row in rows {
            let key = "growth.depth.\(row.depth)"
            let depth = Curve.xLabel(Double(row.depth), unit: "transfers")
            report.add("growth", "\(key).enqueueWall", "\(depth) queued: wall per transfer queued (64 in flight)", row.enqueueWall, "us")
            report.add("growth", "\(key).enqueueCPU", "\(depth) queued: phoned CPU per transfer queued", row.enqueueCPU, "us")
            report.add(
                "growth", "\(key).enqueueBytes", "\(depth) queued: phoned bytes written per transfer queued", row.enqueueBytes, "B")
            report.add(
                "growth", "\(key).accept.p50", "\(depth) queued: accept latency p50 (one at a time)", row.accept.p50, "us",
                ratio: fdatasyncRatio(row.accept.p50))
            report.add("growth", "\(key).accept.p99", "\(depth) queued: accept latency p99", row.accept.p99, "us", detail: true)
            report.add("growth", "\(key).rss", "\(depth) queued: phoned RSS", row.rssMiB, "MiB", detail: true)
            report.add("growth", "\(key).drainRate", "\(depth) queued: drain rate once watchd starts", row.drainRate, "/s")
            report.add("growth", "\(key).drainCPU", "\(depth) queued: daemon CPU per drained transfer", row.drainCPU, "us")
        }
        addCurve(
            "phoned CPU per transfer queued, by queue depth (µs)", key: "growth.depth.enqueueCPU", unit: "transfers",
            scale: .log10, rows.map { (Double($0.depth), $0.enqueueCPU) })
        addCurve(
            "wall time per transfer queued, 64 in flight, by queue depth (µs)", key: "growth.depth.enqueueWall",
            unit: "transfers", scale: .log10, rows.map { (Double($0.depth), $0.enqueueWall) })
        addCurve(
            "accept latency p50, one at a time, by queue depth (µs)", key: "growth.depth.accept", unit: "transfers",
            scale: .log10, rows.map { (Double($0.depth), $0.accept.p50) })
        addCurve(
            "daemon CPU per drained transfer, by backlog (µs)", key: "growth.depth.drainCPU", unit: "transfers",
            scale: .log10, rows.map { (Double($0.depth), $0.drainCPU) })
    }

    /// A latency next to one raw fdatasync of the same run (the floor of a durable accept).
    private func fdatasyncRatio(_ microseconds: Double) -> Ratio? {
        guard let rate = context.baselines.fdatasyncRate else { return nil }
        let one = 1e6 / rate
        return Ratio(factor: microseconds / one, baseline: "one raw fdatasync", baselineValue: one)
    }

    /// Adds a curve to the report, with its growth (last / first) and slope as rows.
    func addCurve(_ title: String, key: String, unit: String, scale: Curve.Scale, _ points: [(Double, Double)]) {
        let curve = Curve(
            title: title, xUnit: unit, yUnit: "µs", scale: scale, points: points.map { Curve.Point(x: $0.0, y: $0.1) })
        guard points.count >= 2 else { return }
        let report = context.report
        report.curves.append(curve)
        let span = "\(Curve.xLabel(points.first!.0, unit: unit)) → \(Curve.xLabel(points.last!.0, unit: unit))"
        report.add("growth", "\(key).growth", "\(title): \(span)", curve.growth, "x", note: "flat: 1×", detail: scale == .linear)
        if let fit = curve.fit {
            let per = scale == .log10 ? "per 10× depth" : "per KiB"
            report.add(
                "growth", "\(key).slope", "\(title): slope \(per)", scale == .log10 ? fit.slope : fit.slope * 1024, "us",
                note: "least squares over \(points.count) points")
            report.add("growth", "\(key).intercept", "\(title): intercept", fit.intercept, "us", detail: true)
            if let worst = curve.worstDeviation {
                report.add("growth", "\(key).worstDeviation", "\(title): worst point off the fit", worst * 100, "%", detail: true)
            }
        }
    }
}
