/// A latency's p50, p99 and p99.9, each divided by the same percentile of a baseline of the same run.
struct LatencyRatios {
    /// p50 / the baseline's p50.
    var p50: Ratio?
    /// p99 / the baseline's p99.
    var p99: Ratio?
    /// p99.9 / the baseline's p99.9.
    var p999: Ratio?

    /// The ratios of `summary` to `baseline`, named `"<baselineName> p50"` and so on in the table; all
    /// nil when there is no baseline (its section did not run).
    init(_ summary: LatencySummary, to baseline: LatencySummary?, baselineName: String) {
        func ratio(_ value: Double, _ base: Double?, _ percentile: String) -> Ratio? {
            base.map { Ratio(factor: value / $0, baseline: "\(baselineName) \(percentile)", baselineValue: $0) }
        }
        p50 = ratio(summary.p50, baseline?.p50, "p50")
        p99 = ratio(summary.p99, baseline?.p99, "p99")
        p999 = ratio(summary.p999, baseline?.p999, "p99.9")
    }
}
