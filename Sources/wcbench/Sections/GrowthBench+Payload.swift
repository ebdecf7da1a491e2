import WatchPairWire

// The payload curve: the cost of one transfer by its encoded size, next to the raw round trip.
extension GrowthBench {
    /// What one payload size measured (µs unless named otherwise).
    struct SizeRow {
        /// Encoded payload bytes (what the 65,536-byte limit measures).
        var size: Int
        /// One at a time: send → the app holds it, and accept.
        var delivery: LatencySummary
        var accept: LatencySummary
        /// 64 in flight: wall and both daemons' CPU per transfer, bytes written to storage per transfer.
        var wall: Double
        var cpu: Double
        var storageBytes: Double
        /// The raw ping-pong round trip of `size` bytes in the same run.
        var raw: LatencySummary
    }

    /// Bytes the encoding of `{"n": <integer>, "p": <string>}` adds around the string: the dictionary's
    /// tag and count (5), two keys of one character (6 each), the integer (9) and the string's tag and
    /// length (5) (docs/WireFormat.md, "Property lists").
    static let encodingOverhead = 31

    /// Measures transfers whose encoded payload is `size` bytes, with both apps running.
    func measure(size: Int, plan: Plan, pair: DaemonPair, apps: inout GrowthApps) throws(BenchError) -> SizeRow {
        let label = Curve.xLabel(Double(size), unit: "B")
        context.progress("growth: payload \(label)")
        let echo = try EchoPeer(context)
        let raw: LatencySummary
        do {
            defer { echo.stop() }
            raw = try echo.roundTrips(size: size, warmup: plan.rawRoundTrips / 10, count: plan.rawRoundTrips)
        }
        let deadline = context.phaseDeadline()
        apps.sender.connection.shutdownWrite()
        let sender = try UserInfoSender(
            pair.controlPath(.phone), payloadBytes: size - Self.encodingOverhead, firstN: apps.sender.nextN, deadline: deadline)
        apps.sender = sender
        _ = try TransferPump.run(sender: sender, app: apps.app, finished: apps.finished, count: 10, window: 1, deadline: deadline)

        sender.accept = LatencyRecorder()
        let sequential = try TransferPump.run(
            sender: sender, app: apps.app, finished: apps.finished, count: plan.sizeSequential, window: 1, deadline: deadline)
        let delivery = sequential.deliveryLatency(sender: sender, app: apps.app).summary
        let accept = sender.accept.summary
        try apps.settle(pair: pair, deadline: deadline)

        let meter = try PairMeter(
            pair: pair, perf: context.binaries.perf, name: "growth-\(size)B", countFsyncs: false,
            profiling: context.profiling)
        try meter.begin()
        let parallel = try TransferPump.run(
            sender: sender, app: apps.app, finished: apps.finished, count: plan.sizeParallel, window: 64,
            deadline: context.phaseDeadline())
        try apps.settle(pair: pair, deadline: context.phaseDeadline())
        let usage = try meter.end()
        let count = Double(plan.sizeParallel)
        return SizeRow(
            size: size, delivery: delivery, accept: accept, wall: 1e6 / parallel.endToEndRate,
            cpu: usage.totalCPU / count * 1e6, storageBytes: Double(usage.totalWriteBytes) / count, raw: raw)
    }

    /// The payload rows and the charts with their fit per KiB.
    func recordSizes(_ rows: [SizeRow]) {
        let report = context.report
        for row in rows {
            let key = "growth.payload.\(row.size)B"
            let size = Curve.xLabel(Double(row.size), unit: "B")
            let raw = Ratio(factor: row.delivery.p50 / row.raw.p50, baseline: "raw ping-pong \(size) p50", baselineValue: row.raw.p50)
            report.add("growth", "\(key).raw.p50", "payload \(size): raw ping-pong round trip p50", row.raw.p50, "us")
            report.add("growth", "\(key).delivery.p50", "payload \(size): send → app holds it p50 (one at a time)", row.delivery.p50, "us", ratio: raw)
            report.add("growth", "\(key).accept.p50", "payload \(size): accept latency p50", row.accept.p50, "us", detail: true)
            report.add("growth", "\(key).wall", "payload \(size): wall per transfer (64 in flight)", row.wall, "us")
            report.add("growth", "\(key).cpu", "payload \(size): daemon CPU per transfer (64 in flight)", row.cpu, "us")
            report.add(
                "growth", "\(key).storageBytes", "payload \(size): bytes written to storage per transfer", row.storageBytes, "B",
                detail: true)
        }
        addCurve(
            "send → app holds it p50, one at a time, by payload (µs)", key: "growth.payload.delivery", unit: "B",
            scale: .linear, rows.map { (Double($0.size), $0.delivery.p50) })
        addCurve(
            "daemon CPU per transfer, 64 in flight, by payload (µs)", key: "growth.payload.cpu", unit: "B", scale: .linear,
            rows.map { (Double($0.size), $0.cpu) })
        addCurve(
            "raw ping-pong round trip p50, by payload (µs)", key: "growth.payload.raw", unit: "B", scale: .linear,
            rows.map { (Double($0.size), $0.raw.p50) })
    }
}
