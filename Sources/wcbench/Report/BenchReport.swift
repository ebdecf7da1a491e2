import Foundation

/// Everything one run measured: the machine, the settings, every number, and what failed.
///
/// Sections add measurements as they go; the table and the JSON file are rendered from this at the end.
final class BenchReport: Codable {
    /// The command line that produced the report.
    var command: String
    /// Whether `--quick` counts were used (targets that depend on a count are then not judged).
    var quick: Bool
    /// When the run started (ISO 8601).
    var startedAt: String
    /// Wall time of the whole run, seconds.
    var durationSeconds: Double = 0
    /// The machine.
    var machine: MachineInfo
    /// Where the daemons came from.
    var binaries: [String: String]
    /// The work each section did.
    var counts: Counts
    /// Every number.
    var measurements: [Measurement] = []
    /// Sections or steps that failed, with the reason.
    var errors: [String] = []
    /// Things a reader must know to interpret the numbers (skipped parts, sources of counts).
    var notes: [String] = []
    /// Cost curves (the growth section), printed as text charts after the table.
    var curves: [Curve] = []

    init(command: String, quick: Bool, machine: MachineInfo, binaries: [String: String], counts: Counts) {
        self.command = command
        self.counts = counts
        self.quick = quick
        self.machine = machine
        self.binaries = binaries
        self.startedAt = ISO8601DateFormatter().string(from: Date())
    }

    /// Adds a measurement; `met` is computed from the target.
    func add(
        _ section: String, _ key: String, _ label: String, _ value: Double?, _ unit: String,
        target: Target? = nil, ratio: Ratio? = nil, note: String? = nil, detail: Bool = false
    ) {
        var measurement = Measurement(
            section: section, key: key, label: label, value: value, unit: unit, target: target, ratio: ratio, note: note,
            detail: detail ? true : nil)
        if let target, let value { measurement.met = target.isMet(by: value) }
        measurements.append(measurement)
    }

    /// The value of a measurement already added, by key.
    func value(_ key: String) -> Double? {
        measurements.last { $0.key == key }?.value
    }

    /// Adds the p50, p99 and p99.9 of a latency (µs), the first two optionally with targets and ratios,
    /// plus the count, max and mean without.
    func addLatency(
        _ section: String, _ key: String, _ label: String, _ summary: LatencySummary,
        p50Target: Target? = nil, p99Target: Target? = nil,
        p50Ratio: Ratio? = nil, p99Ratio: Ratio? = nil, p999Ratio: Ratio? = nil
    ) {
        add(section, "\(key).p50", "\(label) p50", summary.p50, "us", target: p50Target, ratio: p50Ratio)
        add(section, "\(key).p99", "\(label) p99", summary.p99, "us", target: p99Target, ratio: p99Ratio)
        add(section, "\(key).p999", "\(label) p99.9", summary.p999, "us", ratio: p999Ratio)
        add(section, "\(key).p90", "\(label) p90", summary.p90, "us", detail: true)
        add(section, "\(key).max", "\(label) max", summary.max, "us", detail: true)
        add(section, "\(key).mean", "\(label) mean", summary.mean, "us", detail: true)
        add(section, "\(key).count", "\(label) samples", Double(summary.count), "count", detail: true)
    }

    /// Records a failed section or step.
    func fail(_ section: String, _ error: any Error) {
        errors.append("\(section): \(error)")
    }

    /// Writes the report as pretty-printed JSON with sorted keys.
    func writeJSON(to path: String) throws(BenchError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(self)
            try (data + Data("\n".utf8)).write(to: URL(fileURLWithPath: path))
        } catch {
            throw BenchError("cannot write the JSON report to \(path): \(error)")
        }
    }
}
