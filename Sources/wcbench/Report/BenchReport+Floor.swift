/// A floor measured in the same run: what a path costs here with no work of ours, over a baseline.
extension BenchReport {
    /// The floor `floor` µs (`<key>` with its ratio to `base`), then the measured p50 over it
    /// (`overKey`): the two rows a section shows when a target lies below what the machine allows.
    func addFloor(
        _ section: String, key: String, label: String, floor: Double, base: (name: String, p50: Double), note: String,
        measured: Double, overKey: String, overLabel: String
    ) {
        add(
            section, key, label, floor, "us",
            ratio: Ratio(factor: floor / base.p50, baseline: "\(base.name) p50", baselineValue: base.p50), note: note)
        add(section, overKey, overLabel, measured / floor, "x")
    }
}
