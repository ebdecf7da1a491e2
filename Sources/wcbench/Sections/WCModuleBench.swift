import Foundation
import Glibc

/// Section `wcmodule`: a message round trip between two apps on the `WatchConnectivity` module, next to
/// the raw ping-pong of the same run (issue 15, second row).
///
/// Two app processes (`wcbench _layer-app`, see ``LayerAppProcesses``): the watch app's plain delegate
/// answers every message with itself; the phone app sends 64 B `sendMessage` with a reply handler, one
/// after the other (``MessagePinger``). Each `WCSession` hosts its engine in-process, so a round trip
/// crosses two sockets, as the raw ping-pong does: 1× is the floor, the target ≤ 1.5× at p50. Between
/// the warm-up and the measured round trips wcbench reads both apps' CPU time from /proc (and, with
/// `--profile`, attaches `perf record` to both), so CPU per message covers exactly the measured window.
struct WCModuleBench {
    let context: BenchContext

    func run() throws(BenchError) {
        let apps = try LayerAppProcesses(context: context, section: "wcmodule")
        let counts = context.counts
        let watch = try apps.start("responder", side: "watch")
        defer { watch.stop() }
        let (phone, pinger) = try apps.startMeasuring(
            "pinger", ["--round-trips", "\(counts.layerRoundTrips)", "--warmup", "\(counts.messageWarmup)"], side: "phone")
        defer { phone.stop() }

        context.progress("wcmodule: \(counts.messageWarmup) warm-up round trips between two WCSession apps")
        _ = try pinger.expect("warm", deadline: context.phaseDeadline())
        let profilers = try apps.profile([("phone", phone), ("watch", watch)], window: "wcmodule")
        let before = (phone: try ProcessStats.of(phone.pid), watch: try ProcessStats.of(watch.pid))
        for profiler in profilers { try profiler.enable() }
        context.progress("wcmodule: \(counts.layerRoundTrips) round trips")
        try pinger.write("go")
        let line = try pinger.expect("roundTrips", deadline: context.phaseDeadline())
        let after = (phone: try ProcessStats.of(phone.pid), watch: try ProcessStats.of(watch.pid))
        for profiler in profilers { try profiler.stop() }
        let trips = try LayerAppProcesses.decode(RoundTrips.self, line, from: pinger.name)
        guard trips.samples.count == counts.layerRoundTrips else {
            throw BenchError("the phone app reported \(trips.samples.count) of \(counts.layerRoundTrips) round trips")
        }
        report(trips, cpu: (after.phone.cpuSeconds - before.phone.cpuSeconds, after.watch.cpuSeconds - before.watch.cpuSeconds))
        if let status = phone.wait(seconds: 10), status != 0 {
            throw BenchError("the phone app \(ChildProcess.describe(status)); see \(apps.directory)/phone.log")
        }
    }

    /// The round trip with its ratios to the raw ping-pong of this run, and both apps' CPU per message.
    private func report(_ trips: RoundTrips, cpu: (phone: Double, watch: Double)) {
        var recorder = LatencyRecorder()
        for sample in trips.samples { recorder.record(nanoseconds: sample) }
        let summary = recorder.summary
        let base = context.baselines.pingPong[64]
        let name = "raw ping-pong 64 B"
        let ratios = LatencyRatios(summary, to: base, baselineName: name)
        context.report.addLatency(
            "wcmodule", "wcmodule.rtt.64B", "WCSession.sendMessage round trip, 64 B, two apps,", summary,
            p50Target: base.map { Target(comparison: "<=", limit: 1.5 * $0.p50, text: "≤ 1.5× ping-pong p50") },
            p50Ratio: ratios.p50, p99Ratio: ratios.p99, p999Ratio: ratios.p999)
        if let base {
            context.report.add("wcmodule", "wcmodule.pingPong.64B.p50", "\(name) round trip p50 (this run's baseline)", base.p50, "us")
            context.report.add(
                "wcmodule", "wcmodule.rtt.64B.overhead.p50", "WCSession round trip p50 / \(name) p50", summary.p50 / base.p50, "x",
                target: Target(comparison: "<=", limit: 1.5, text: "≤ 1.5×"))
            if let handOff = context.baselines.handOff {
                // The API's shape: two socket crossings, plus five hand-overs between threads (caller →
                // engine, engine → delegate queue and back on the receiving side, engine → delegate queue →
                // caller on the sending side). Each costs about half a hand-off round trip.
                context.report.addFloor(
                    "wcmodule", key: "wcmodule.floor.64B.p50", label: "floor: ping-pong p50 + 5 hand-overs (half a hand-off round trip each)",
                    floor: base.p50 + 5 * handOff.p50 / 2, base: (name, base.p50),
                    note: "an estimate from this run's baseline: what Apple's threading contract costs with no work at all",
                    measured: summary.p50, overKey: "wcmodule.rtt.64B.overFloor.p50", overLabel: "WCSession round trip p50 / that floor")
            }
        } else {
            context.report.notes.append("wcmodule: no ratio to the raw ping-pong (run the baseline section too)")
        }
        let perMessage = { (seconds: Double) in seconds / Double(trips.samples.count) * 1e6 }
        context.report.add(
            "wcmodule", "wcmodule.rtt.64B.cpuPerMessage", "round trip, 64 B, both apps' CPU per message", perMessage(cpu.phone + cpu.watch), "us",
            note: "user + system time of both processes over the measured window (/proc, 10 ms ticks)")
        context.report.add("wcmodule", "wcmodule.rtt.64B.cpuPerMessage.phone", "  of which the phone app (sender)", perMessage(cpu.phone), "us")
        context.report.add("wcmodule", "wcmodule.rtt.64B.cpuPerMessage.watch", "  of which the watch app (replies)", perMessage(cpu.watch), "us")
    }

    /// `roundTrips {"samples":[ns…]}`.
    struct RoundTrips: Decodable {
        var samples: [UInt64]
    }
}
