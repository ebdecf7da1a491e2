import Foundation

/// Renders a ``BenchReport`` as the plain-text table printed at the end of a run.
///
/// One row per measurement (supporting numbers marked `detail` are left to the JSON), grouped by
/// section: the value, the issue's target, the ratio to this machine's limit measured in the same run,
/// and whether the target was met.
enum ReportTable {
    /// The whole table, header and notes included.
    static func render(_ report: BenchReport) -> String {
        var lines: [String] = []
        let m = report.machine
        lines.append("wcbench \(report.quick ? "(quick) " : "")— \(m.nproc) CPUs (\(m.cpuModel)), kernel \(m.kernel), state on \(m.stateFileSystem) (\(m.stateMountOptions))")
        lines.append("load average at start \(m.loadAverageAtStart), at end \(m.loadAverageAtEnd ?? "?"); run took \(format(report.durationSeconds, digits: 1)) s")
        lines.append("")
        let header = ["measurement", "value", "target", "vs. this machine", "result"]
        var rows: [[String]] = []
        var sectionOf: [Int] = []
        var lastSection = ""
        for measurement in report.measurements where measurement.detail != true {
            if measurement.section != lastSection {
                lastSection = measurement.section
                rows.append(["[\(measurement.section)]", "", "", "", ""])
                sectionOf.append(rows.count - 1)
            }
            rows.append(row(measurement))
        }
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 1 ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        lines.append(line(header))
        lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        for (index, row) in rows.enumerated() {
            lines.append(sectionOf.contains(index) ? row[0] : line(row))
        }
        for curve in report.curves {
            lines.append("")
            lines.append(curve.chart())
        }
        let judged = report.measurements.filter { $0.met != nil }
        let missed = judged.filter { $0.met == false }
        lines.append("")
        lines.append("targets: \(judged.count - missed.count) met, \(missed.count) missed\(missed.isEmpty ? "" : " (" + missed.map(\.key).joined(separator: ", ") + ")")")
        for note in report.notes { lines.append("note: \(note)") }
        for error in report.errors { lines.append("FAILED: \(error)") }
        return lines.joined(separator: "\n")
    }

    private static func row(_ measurement: Measurement) -> [String] {
        let value = measurement.value.map { format($0, unit: measurement.unit) } ?? "n/a"
        let target = measurement.target.map { "\($0.text) (\(format($0.limit, unit: measurement.unit)))" } ?? ""
        let ratio = measurement.ratio.map { "\(format($0.factor, digits: $0.factor < 10 ? 2 : 1))× \($0.baseline)" } ?? ""
        let result: String
        switch measurement.met {
        case true?: result = "met"
        case false?: result = "MISSED"
        case nil: result = measurement.target == nil ? "" : "not judged"
        }
        var label = "  " + measurement.label
        if let note = measurement.note, measurement.value == nil { label += " (\(note))" }
        return [label, value, target, ratio, result]
    }

    /// A value with its unit, with as many digits as make sense.
    static func format(_ value: Double, unit: String) -> String {
        switch unit {
        case "us": return value >= 10_000 ? "\(format(value / 1000, digits: 1)) ms" : "\(format(value, digits: value < 100 ? 1 : 0)) µs"
        case "ms": return "\(format(value, digits: value < 100 ? 1 : 0)) ms"
        case "/s": return "\(grouped(value)) /s"
        case "MiB": return "\(format(value, digits: 1)) MiB"
        case "B": return "\(grouped(value)) B"
        case "x": return "\(format(value, digits: 2))×"
        case "count": return grouped(value)
        case "%": return "\(format(value, digits: 0)) %"
        default: return "\(format(value, digits: 2)) \(unit)"
        }
    }

    /// Fixed digits after the point.
    static func format(_ value: Double, digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    /// An integer with thousands separators (`23,456`); fractional values below 100 keep two digits.
    static func grouped(_ value: Double) -> String {
        if abs(value) < 100 && value != value.rounded() { return format(value, digits: 2) }
        let number = Int(value.rounded())
        let digits = String(abs(number))
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return (number < 0 ? "-" : "") + out
    }
}
