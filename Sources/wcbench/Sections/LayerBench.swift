import Foundation
import Glibc

/// Section 8: the `WatchConnection` layer, next to the raw `WCSession` of the same two apps.
///
/// Two app processes on the WatchConnectivity module (`wcbench _layer-app`, see ``LayerDriver``), linked
/// over real Unix sockets in their own directory: the phone app measures `WCSession.sendMessage` round
/// trips (the watch app's plain delegate answers each with its payload), then the same payload as a
/// typed request through `WatchConnection.send` (default strategy, the watch app's handler answers),
/// then the wire form's JSON work of as many requests alone, which with the raw round trip is the
/// floor of a typed request (`layer.floor.p50`). wcbench reads both apps' CPU time around each measured
/// loop (``LayerDriver``'s gates), so the CPU per raw round trip and per typed request, and their ratio,
/// sit beside the latencies: a CPU ratio moves less with the machine's other work than a p50 does.
/// Then the watch app is killed, the phone app queues N requests (persisted), the watch app is started
/// again, and the flush is timed from its start (the `queueFlushed` event) to the last response; then the
/// same again with the watch app started with its storage directory (each answer recorded on disk before
/// it leaves).
struct LayerBench {
    let context: BenchContext

    func run() throws(BenchError) {
        let apps = try LayerAppProcesses(context: context, section: "layer")
        let counts = context.counts
        var watch = try apps.start("responder", side: "watch")
        defer { watch.stop() }
        let (driverProcess, driver) = try apps.startMeasuring(
            "driver",
            ["--round-trips", "\(counts.layerRoundTrips)", "--warmup", "\(counts.messageWarmup)", "--queued", "\(counts.layerQueued)"],
            side: "phone")
        defer { driverProcess.stop() }

        context.progress("layer: \(counts.layerRoundTrips) round trips raw, then through the layer")
        // Each measured loop between two gates: its CPU read, and with `--profile` its own perf records.
        var cpu: [Double] = []
        let watchPid = watch.pid
        func bothApps() throws(BenchError) -> Double {
            try ProcessStats.of(driverProcess.pid).cpuSeconds + ProcessStats.of(watchPid).cpuSeconds
        }
        for (window, open, close) in [("layer-raw", "raw-warm", "raw-done"), ("layer-typed", "layer-warm", "layer-done")] {
            _ = try driver.expect(open, deadline: context.phaseDeadline())
            let profilers = try apps.profile([("phone", driverProcess), ("watch", watch)], window: window)
            cpu.append(try bothApps())
            for profiler in profilers { try profiler.enable() }
            try driver.write("go")
            _ = try driver.expect(close, deadline: context.phaseDeadline())
            cpu.append(try bothApps())
            for profiler in profilers { try profiler.stop() }
            try driver.write("go")
        }
        let trips = try LayerAppProcesses.decode(
            RoundTrips.self, try driver.expect("roundTrips", deadline: context.phaseDeadline()), from: driver.name)
        report(trips)
        report(cpu: (raw: cpu[1] - cpu[0], layer: cpu[3] - cpu[2]), count: trips.layer.count)

        // Two flushes: to a watch app in memory, then to one that records each answer on disk first.
        for persisted in [false, true] {
            _ = try driver.expect("stop-peer", deadline: context.phaseDeadline())
            watch.send(SIGKILL)
            watch.stop()
            try driver.write("peer-stopped")
            context.progress("layer: queueing \(counts.layerQueued) requests with the watch app off"
                + (persisted ? ", then the flush to a watch app with its storage directory" : ""))
            _ = try driver.expect("start-peer", deadline: context.phaseDeadline())
            watch = try apps.start("responder", ["--layer-only"] + (persisted ? ["--storage"] : []), side: "watch")
            let flush = try LayerAppProcesses.decode(
                Flush.self, try driver.expect("flush", deadline: context.phaseDeadline()), from: driver.name)
            if persisted { reportPersisted(flush) } else { report(flush) }
            // Every queued request must end with its response once the watch app is back: a broken promise
            // of the layer, which fails the section (and CI's --quick run), not a slow number.
            if flush.failed > 0 {
                throw BenchError("\(flush.failed) of \(flush.count) queued requests failed after the flush; see \(apps.directory)/phone.log")
            }
        }
        if let status = driverProcess.wait(seconds: 10), status != 0 {
            throw BenchError("the layer's phone app \(ChildProcess.describe(status)); see \(apps.directory)/phone.log")
        }
    }

    /// The raw and the layer's round trips, and the overhead ratio with its target.
    private func report(_ trips: RoundTrips) {
        var raw = LatencyRecorder()
        for sample in trips.raw { raw.record(nanoseconds: sample) }
        var layer = LatencyRecorder()
        for sample in trips.layer { layer.record(nanoseconds: sample) }
        let (rawSummary, layerSummary) = (raw.summary, layer.summary)
        let name = "raw WCSession.sendMessage"
        context.report.addLatency("layer", "layer.raw.rtt.64B", "\(name) round trip, 64 B,", rawSummary)
        context.report.addLatency(
            "layer", "layer.request.rtt.64B", "typed request round trip through WatchConnection, 64 B,", layerSummary,
            p50Ratio: Ratio(factor: layerSummary.p50 / rawSummary.p50, baseline: "\(name) p50", baselineValue: rawSummary.p50),
            p99Ratio: Ratio(factor: layerSummary.p99 / rawSummary.p99, baseline: "\(name) p99", baselineValue: rawSummary.p99),
            p999Ratio: Ratio(factor: layerSummary.p999 / rawSummary.p999, baseline: "\(name) p99.9", baselineValue: rawSummary.p999))
        context.report.add(
            "layer", "layer.request.overhead.p50", "layer overhead: typed request p50 / raw message p50",
            layerSummary.p50 / rawSummary.p50, "x", target: Target(comparison: "<=", limit: 1.3, text: "≤ 1.3×"),
            note: "send(_:) with its defaults; the receiver's recorded responses in memory (the default configuration)")
        context.report.add(
            "layer", "layer.request.overhead.p99", "layer overhead: typed request p99 / raw message p99",
            layerSummary.p99 / rawSummary.p99, "x")
        guard let samples = trips.wire, !samples.isEmpty else { return }
        // The floor of the documented wire form: the raw round trip plus the JSON a request and its
        // response must go through, all of it on the round trip's path (``LayerDriver/wireWork(_:echo:)``).
        var wire = LatencyRecorder()
        for sample in samples { wire.record(nanoseconds: sample) }
        let wireP50 = wire.summary.p50
        context.report.add(
            "layer", "layer.wire.json.p50", "the wire form's JSON per request and response, alone, p50", wireP50, "us",
            note: "draw an id, encode the request, read its header and body, encode the response, read its header and body, as the layer does: in-process, no session")
        context.report.addFloor(
            "layer", key: "layer.floor.p50", label: "floor: raw message p50 + the wire form's JSON p50",
            floor: rawSummary.p50 + wireP50, base: (name, rawSummary.p50),
            note: "what a typed request costs here with no bookkeeping at all, over the same apps' raw round trip",
            measured: layerSummary.p50, overKey: "layer.request.overFloor.p50", overLabel: "typed request p50 / that floor")
    }

    /// Both apps' CPU per raw round trip and per typed request over the measured loops, and their ratio.
    private func report(cpu: (raw: Double, layer: Double), count: Int) {
        guard count > 0 else { return }
        let perTrip = { (seconds: Double) in seconds / Double(count) * 1e6 }
        let note = "user + system time of both apps over the measured loop (/proc, 10 ms ticks)"
        context.report.add("layer", "layer.raw.cpuPerMessage", "raw WCSession.sendMessage: both apps' CPU per round trip", perTrip(cpu.raw), "us", note: note)
        context.report.add("layer", "layer.request.cpuPerRequest", "typed request: both apps' CPU per request", perTrip(cpu.layer), "us", note: note)
        guard cpu.raw > 0 else { return }
        context.report.add("layer", "layer.request.cpuOverhead", "layer CPU overhead: typed request CPU / raw message CPU", cpu.layer / cpu.raw, "x")
    }

    /// The flush of the queue: time and rate, the target judged for 1,000 only.
    private func report(_ flush: Flush) {
        let target = flush.count == 1_000 ? Target(comparison: "<", limit: 1000, text: "< 1 s for 1,000") : nil
        context.report.add(
            "layer", "layer.flush.total", "\(ReportTable.grouped(Double(flush.count))) queued requests: flush start → all answered",
            flush.seconds * 1000, "ms", target: target,
            note: (target == nil ? "target applies to 1,000 (full run); " : "")
                + ".messageOnly, .queued; the sender's queue persisted, its capacity raised to the count")
        context.report.add("layer", "layer.flush.rate", "queued requests flushed and answered", Double(flush.count) / flush.seconds, "/s")
        context.report.add(
            "layer", "layer.queue.rate", "requests queued (persisted) with the watch app off", Double(flush.count) / flush.enqueueSeconds, "/s")
    }

    /// The second flush, to a watch app that records each answer durably before it leaves.
    private func reportPersisted(_ flush: Flush) {
        context.report.add(
            "layer", "layer.flushPersisted.total",
            "\(ReportTable.grouped(Double(flush.count))) queued requests, the watch app persisted: flush start → all answered",
            flush.seconds * 1000, "ms", note: "as above; the watch app's connection has its storageDirectory (each answer recorded, fdatasync)")
        context.report.add(
            "layer", "layer.flushPersisted.rate", "queued requests flushed to a persisted watch app and answered", Double(flush.count) / flush.seconds, "/s")
    }

    /// `roundTrips {"raw":[ns…],"layer":[ns…],"wire":[ns…]}` (`wire` from an app that measures it).
    struct RoundTrips: Decodable {
        var raw: [UInt64]
        var layer: [UInt64]
        var wire: [UInt64]?
    }

    /// `flush {…}`.
    struct Flush: Decodable {
        var count: Int
        var failed: Int
        var seconds: Double
        var enqueueSeconds: Double
    }
}
