/// One number the benchmark reports, with its target and its ratio to this machine's limit.
struct Measurement: Codable, Sendable {
    /// The section (`baseline`, `message`, `userInfo`, `applicationContext`, `drain`, `coldLaunch`, `memory`, `layer`, `file`, `sync`, `wcmodule`).
    var section: String
    /// A stable dotted name for scripts, e.g. `message.rtt.64B.autoReply.p50`.
    var key: String
    /// What it is, for the table.
    var label: String
    /// The value in `unit`; nil when it could not be measured (see `note`).
    var value: Double?
    /// `us`, `ms`, `/s`, `MiB`, `B`, `x`, `count`, ...
    var unit: String
    /// The target, when it has one.
    var target: Target?
    /// The value divided by the baseline it is compared with, when it has one.
    var ratio: Ratio?
    /// Whether the target was met (nil without a target or a value).
    var met: Bool?
    /// Where a number comes from or why it is missing.
    var note: String?
    /// True for supporting numbers kept in the JSON but left out of the table.
    var detail: Bool?
}

/// A target from the issue, resolved to an absolute limit for this run.
struct Target: Codable, Sendable {
    /// `<=` or `>=` (or `<`).
    var comparison: String
    /// The limit in the measurement's unit (for ratio targets: the factor times this run's baseline).
    var limit: Double
    /// The target as the issue states it, e.g. `≤ 2× ping-pong p50`.
    var text: String

    /// Whether `value` meets the target.
    func isMet(by value: Double) -> Bool {
        switch comparison {
        case "<": value < limit
        case "<=": value <= limit
        case ">": value > limit
        default: value >= limit
        }
    }
}

/// A measurement relative to a baseline of the same run.
struct Ratio: Codable, Sendable {
    /// value / baseline.
    var factor: Double
    /// The baseline's name, e.g. `raw ping-pong 64 B p50`.
    var baseline: String
    /// The baseline's value.
    var baselineValue: Double
}
