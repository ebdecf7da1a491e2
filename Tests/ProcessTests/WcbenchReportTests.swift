import Foundation
import Testing

/// wcbench's report of issue 15's round-trip targets and of the relay floor, read from its JSON.
///
/// One `wcbench --quick --only baseline,message` run against the built daemons, then the tables below
/// checked row by row. What is checked is how the report is built (each limit and ratio from rows of the
/// same run, the same count as the ping-pong), never how fast anything was: timings are reported, not
/// asserted.
@Suite("wcbench report: round-trip targets and the relay floor")
struct WcbenchReportTests {
    static let sizes = [64, 1024]

    /// Each judged row: the target as printed, and its limit as a factor of a baseline row.
    static let targets: [(key: String, text: String, factor: Double, baseline: String)] = sizes.flatMap { size in
        [
            ("message.rtt.\(size)B.autoReply.p50", "≤ 2.5× ping-pong p50", 2.5, "baseline.pingPong.\(size)B.p50"),
            ("message.rtt.\(size)B.autoReply.p99", "≤ 4× ping-pong p99", 4, "baseline.pingPong.\(size)B.p99"),
        ]
    }

    /// How the relay floor's relays wait: `wcbench _relay --loop`.
    static let loops = ["blocking", "epoll", "nio", "nioEvents"]

    /// Each relay floor row and the ping-pong row its ratio divides by.
    static let relayRatios: [(key: String, baseline: String)] = sizes.flatMap { size in
        loops.flatMap { loop in
            ["p50", "p99", "p999"].map { ("baseline.relay.\(loop).\(size)B.\($0)", "baseline.pingPong.\(size)B.\($0)") }
        }
    }

    /// The fdatasync rate of two writers at once, each and together, against one writer alone.
    static let fdatasyncRatios: [(key: String, baseline: String)] = ["rate", "total"].map {
        ("baseline.fdatasync.twoWriters.\($0)", "baseline.fdatasync.rate")
    }

    /// Each informational row whose value is one row divided by another.
    static let quotients: [(key: String, numerator: String, denominator: String)] = sizes.flatMap { size in
        [
            ("message.rtt.\(size)B.autoReply.vsEpollRelay.p50", "message.rtt.\(size)B.autoReply.p50", "baseline.relay.epoll.\(size)B.p50"),
            ("message.rtt.\(size)B.autoReply.vsNioEventsRelay.p50", "message.rtt.\(size)B.autoReply.p50", "baseline.relay.nioEvents.\(size)B.p50"),
        ]
    }

    @Test("the round trip is judged against 2.5× the ping-pong p50 and 4× its p99, beside the relay floor of the same run")
    func targetsAndRelayFloor() async throws {
        try await PairSandbox.with { sandbox in
            let json = sandbox.path("bench.json")
            let wcbench = try sandbox.spawn(
                name: "wcbench", executable: sandbox.bin + "/wcbench",
                arguments: [
                    "--quick", "--quiet", "--keep", "--only", "baseline,message", "--bin-dir", sandbox.bin, "--tmp", sandbox.dir, "--json", json,
                ])
            let status = await wcbench.waitForExit(timeout: .seconds(300))
            try #require(status == 0, "wcbench: \(wcbench.stdout.text)\n\(wcbench.stderrText)")
            let report = try JSONDecoder().decode(Report.self, from: Data(contentsOf: URL(fileURLWithPath: json)))

            for row in Self.targets {
                let target = try #require(report[row.key]?.target, "\(row.key) has no target")
                let baseline = try #require(report[row.baseline]?.value, "\(row.baseline) missing")
                #expect(target.text == row.text, "\(row.key)")
                #expect(target.comparison == "<=", "\(row.key)")
                #expect(Self.same(target.limit, row.factor * baseline), "\(row.key): limit \(target.limit), baseline \(baseline)")
            }
            for row in Self.relayRatios + Self.fdatasyncRatios {
                let measurement = try #require(report[row.key], "\(row.key) missing")
                let value = try #require(measurement.value, "\(row.key) has no value")
                let baseline = try #require(report[row.baseline]?.value, "\(row.baseline) missing")
                let ratio = try #require(measurement.ratio, "\(row.key) has no ratio")
                #expect(value > 0, "\(row.key)")
                #expect(Self.same(ratio.baselineValue, baseline) && Self.same(ratio.factor, value / baseline), "\(row.key): \(ratio)")
            }
            for row in Self.quotients {
                let value = try #require(report[row.key]?.value, "\(row.key) missing")
                let numerator = try #require(report[row.numerator]?.value, "\(row.numerator) missing")
                let denominator = try #require(report[row.denominator]?.value, "\(row.denominator) missing")
                #expect(Self.same(value, numerator / denominator), "\(row.key): \(value)")
            }
            // The daemons' CPU per round trip is set beside the relays' CPU for the same four crossings.
            for size in Self.sizes {
                let floorKey = "baseline.relay.epoll.\(size)B.cpuPerRoundTrip"
                let floor = try #require(report[floorKey]?.value, "\(floorKey) missing")
                #expect(floor >= 0, "\(floorKey)")
                let cpuKey = "message.rtt.\(size)B.autoReply.cpuPerMessage"
                let cpu = try #require(report[cpuKey]?.value, "\(cpuKey) missing")
                // A floor below one CPU tick reads as zero and gets no ratio; any other has its own.
                if floor > 0 {
                    let ratio = try #require(report[cpuKey]?.ratio, "\(cpuKey) has no ratio")
                    #expect(Self.same(ratio.baselineValue, floor) && Self.same(ratio.factor, cpu / floor), "\(cpuKey): \(ratio)")
                }
                // And what is above the NIO relays with event lines: the daemons' own work.
                let nioKey = "baseline.relay.nioEvents.\(size)B.cpuPerRoundTrip"
                let nioFloor = try #require(report[nioKey]?.value, "\(nioKey) missing")
                let aboveKey = "message.rtt.\(size)B.autoReply.cpuAboveNioEventsRelay"
                let above = try #require(report[aboveKey]?.value, "\(aboveKey) missing")
                #expect(Self.same(above, cpu - nioFloor) || abs(above - (cpu - nioFloor)) < 1e-9, "\(aboveKey): \(above)")
            }
            // The nioEvents relays wrote one event line per round trip each, warm-up included, for both sizes.
            let runDirectory = try #require(
                try FileManager.default.contentsOfDirectory(atPath: sandbox.dir).first { $0.hasPrefix("wcbench.") }, "no kept run directory")
            for relay in ["A", "B"] {
                let history = try Data(contentsOf: URL(fileURLWithPath: "\(sandbox.dir)/\(runDirectory)/relay-nioEvents-\(relay).history"))
                let roundTrips = Self.sizes.count * (report.counts.pingPongWarmup + report.counts.pingPong)
                #expect(history.count(where: { $0 == UInt8(ascii: "\n") }) == roundTrips, "relay \(relay)")
            }
            // Two writers at once: each wrote as many as the lone writer, over at most the pair's time.
            let each = try #require(report["baseline.fdatasync.twoWriters.rate"]?.value)
            let together = try #require(report["baseline.fdatasync.twoWriters.total"]?.value)
            #expect(each >= together / 2 * (1 - 1e-9), "each \(each), together \(together)")
            // The relay floor takes the ping-pong's count, so the two are measured alike.
            for size in Self.sizes {
                for loop in Self.loops {
                    #expect(report["baseline.relay.\(loop).\(size)B.count"]?.value == Double(report.counts.pingPong), "\(loop) \(size) B")
                }
            }
        }
    }

    /// Equal up to rounding (the JSON carries doubles as decimal text).
    static func same(_ a: Double, _ b: Double) -> Bool {
        abs(a - b) <= 1e-9 * max(abs(a), abs(b))
    }

    /// The parts of wcbench's JSON report (`Sources/wcbench/Report`) the tables read.
    struct Report: Decodable {
        struct Counts: Decodable {
            var pingPong: Int
            var pingPongWarmup: Int
        }
        struct Target: Decodable {
            var comparison: String
            var limit: Double
            var text: String
        }
        struct Ratio: Decodable {
            var factor: Double
            var baselineValue: Double
        }
        struct Measurement: Decodable {
            var key: String
            var value: Double?
            var target: Target?
            var ratio: Ratio?
        }
        var counts: Counts
        var measurements: [Measurement]

        /// The last measurement with `key`.
        subscript(key: String) -> Measurement? { measurements.last { $0.key == key } }
    }
}
