import Histogram

/// Latencies in nanoseconds, kept in an HDR histogram (3 significant digits, 1 ns to 120 s).
///
/// Recording is O(1) and the memory fixed (a few hundred KiB), whatever the sample count; values above
/// the range are clamped to it and counted in `clamped`.
struct LatencyRecorder {
    private static let highest: UInt64 = 120_000_000_000
    private var histogram = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: LatencyRecorder.highest, numberOfSignificantValueDigits: .three)
    /// Samples above the histogram's range (recorded as its maximum).
    private(set) var clamped = 0

    /// Records one latency.
    mutating func record(nanoseconds: UInt64) {
        var value = max(nanoseconds, 1)
        if value > Self.highest {
            value = Self.highest
            clamped += 1
        }
        _ = histogram.record(value)
    }

    /// The number of samples.
    var count: Int { Int(histogram.totalCount) }

    /// The latency at `percentile` (0...100), in microseconds; nil without samples.
    func microseconds(atPercentile percentile: Double) -> Double? {
        guard histogram.totalCount > 0 else { return nil }
        return Double(histogram.valueAtPercentile(percentile)) / 1000
    }

    /// The summary reported for every latency: p50, p90, p99, p99.9, max, mean (µs) and the count.
    var summary: LatencySummary {
        LatencySummary(
            count: count,
            p50: microseconds(atPercentile: 50) ?? 0,
            p90: microseconds(atPercentile: 90) ?? 0,
            p99: microseconds(atPercentile: 99) ?? 0,
            p999: microseconds(atPercentile: 99.9) ?? 0,
            max: histogram.totalCount > 0 ? Double(histogram.max) / 1000 : 0,
            mean: histogram.totalCount > 0 ? histogram.mean / 1000 : 0)
    }
}

/// Percentiles of one latency distribution, in microseconds.
struct LatencySummary: Codable, Sendable {
    var count: Int
    var p50: Double
    var p90: Double
    var p99: Double
    var p999: Double
    var max: Double
    var mean: Double
}
