import Foundation

/// A measured cost curve: one value per x (queue depth, payload size), its least-squares line, and a
/// small text chart of it for the end of the table.
///
/// Pure arithmetic over the points; the growth section measures them.
struct Curve: Codable, Sendable {
    /// How x is fitted: `linear` (cost = a + b·x, payload sizes) or `log10` (cost = a + b·log10 x, queue
    /// depths spanning decades, so b is the change per tenfold depth).
    enum Scale: String, Codable, Sendable {
        case linear, log10
    }

    /// One point: x in the curve's x unit, y in its y unit.
    struct Point: Codable, Sendable {
        var x: Double
        var y: Double
    }

    /// What the curve shows, e.g. `phoned CPU per transfer vs queue depth`.
    var title: String
    /// Units of x and y, as printed (`transfers`, `B`, `µs`).
    var xUnit: String
    var yUnit: String
    var scale: Scale
    var points: [Point]

    /// The fitted line's intercept and slope (per x unit, or per tenfold x for `log10`); nil with
    /// fewer than two distinct x.
    var fit: (intercept: Double, slope: Double)? {
        let xs = points.map { scaled($0.x) }
        let n = Double(xs.count)
        guard xs.count >= 2 else { return nil }
        let meanX = xs.reduce(0, +) / n
        let meanY = points.map(\.y).reduce(0, +) / n
        let sxx = xs.map { ($0 - meanX) * ($0 - meanX) }.reduce(0, +)
        guard sxx > 0 else { return nil }
        let sxy = zip(xs, points).map { ($0 - meanX) * ($1.y - meanY) }.reduce(0, +)
        let slope = sxy / sxx
        return (meanY - slope * meanX, slope)
    }

    /// The largest point's y over the smallest x's y: 1 for a flat curve.
    var growth: Double? {
        guard let first = points.min(by: { $0.x < $1.x }), let last = points.max(by: { $0.x < $1.x }), first.y > 0 else {
            return nil
        }
        return last.y / first.y
    }

    /// The largest distance of a point from the fitted line, relative to the point's value (0.1: a
    /// point 10% off the line): how well "linear" (or "flat") describes the curve.
    var worstDeviation: Double? {
        guard let fit else { return nil }
        return points.filter { $0.y > 0 }.map { abs($0.y - (fit.intercept + fit.slope * scaled($0.x))) / $0.y }.max()
    }

    private func scaled(_ x: Double) -> Double {
        switch scale {
        case .linear: x
        case .log10: Foundation.log10(x)
        }
    }

    /// The chart: one line per point, a bar scaled to the largest y (`width` characters), the value, and
    /// a last line with the fit.
    func chart(width: Int = 40) -> String {
        let top = points.map(\.y).max() ?? 0
        let labels = points.map { Self.xLabel($0.x, unit: xUnit) }
        let labelWidth = labels.map(\.count).max() ?? 0
        var lines = [title]
        for (point, label) in zip(points, labels) {
            let length = top > 0 ? Int((point.y / top * Double(width)).rounded()) : 0
            let bar = String(repeating: "#", count: max(length, point.y > 0 ? 1 : 0))
            let pad = String(repeating: " ", count: labelWidth - label.count)
            lines.append("  \(pad)\(label) | \(bar)\(String(repeating: " ", count: width - bar.count)) \(Self.number(point.y)) \(yUnit)")
        }
        if let fit {
            let per = scale == .log10 ? "per 10× \(xUnit)" : "per \(xUnit)"
            var summary = "  fit: \(Self.number(fit.intercept)) \(yUnit) + \(Self.number(fit.slope, digits: 4)) \(yUnit) \(per)"
            if let worstDeviation { summary += "; worst point \(Self.number(worstDeviation * 100))% off the line" }
            lines.append(summary)
        }
        return lines.joined(separator: "\n")
    }

    /// `1k`, `100k`, `1M` for depths; `64 B`, `4 KiB` for sizes.
    static func xLabel(_ x: Double, unit: String) -> String {
        let value = Int(x.rounded())
        if unit == "B" {
            return value >= 1024 && value % 1024 == 0 ? "\(value / 1024) KiB" : "\(value) B"
        }
        if value >= 1_000_000, value % 1_000_000 == 0 { return "\(value / 1_000_000)M" }
        if value >= 1_000, value % 1_000 == 0 { return "\(value / 1_000)k" }
        return "\(value)"
    }

    private static func number(_ value: Double, digits: Int? = nil) -> String {
        let digits = digits ?? (abs(value) >= 100 ? 0 : abs(value) >= 10 ? 1 : 2)
        return String(format: "%.\(digits)f", value)
    }
}

