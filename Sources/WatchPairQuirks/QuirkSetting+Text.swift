/// Durations as commands and configuration spell them: `250ms`, `2s`, `1.5s`, `3m`, or a bare number of
/// seconds (`0.5`, as configuration files give durations), and a range as `LOW...HIGH` (`500ms...3s`);
/// a single value is a range of one.
extension QuirkSetting {
    /// The delay range `text` spells, or `QuirkError.invalidDelay`.
    public static func delay(parsing text: String) throws(QuirkError) -> ClosedRange<Duration> {
        let parts = text.split(separator: "...", omittingEmptySubsequences: false)
        guard parts.count <= 2, let low = duration(parts[0]), let high = duration(parts.last!), low <= high else {
            throw .invalidDelay(text)
        }
        return low ... high
    }

    /// `range` as `delay(parsing:)` reads it back.
    public static func text(_ range: ClosedRange<Duration>) -> String {
        range.lowerBound == range.upperBound
            ? text(range.lowerBound) : "\(text(range.lowerBound))...\(text(range.upperBound))"
    }

    /// `duration` in milliseconds when it is not whole seconds.
    public static func text(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds)s" }
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return milliseconds == milliseconds.rounded() ? "\(Int64(milliseconds))ms" : "\(milliseconds)ms"
    }

    private static func duration(_ text: Substring) -> Duration? {
        let units: [(String, Double)] = [("ms", 1e-3), ("s", 1), ("m", 60)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            guard let number = Double(text.dropLast(suffix.count)) else { return nil }
            return seconds(number * scale)
        }
        return Double(text).flatMap(seconds)
    }

    private static func seconds(_ number: Double) -> Duration? {
        guard number >= 0, number.isFinite, number < 1e9 else { return nil }
        return .nanoseconds(Int64((number * 1e9).rounded()))
    }
}
