import Configuration
import WatchPairQuirks

/// The quirks of real devices set from configuration (docs/Configuration.md, docs/Quirks.md):
/// `quirks.<name>.probability`, `.count`, `.seed` and `.delay`; any key of a quirk turns it on, the absent
/// ones taking ``QuirkSetting``'s defaults.
public enum QuirkSettings {
    /// The keys of one quirk, after `quirks.<name>.`.
    static let fields = ["probability", "count", "seed", "delay"]

    /// Every key ``read(config:)`` reads, quirk by quirk in catalog order.
    public static let configKeys = Quirk.allCases.flatMap { quirk in fields.map { "quirks.\(quirk.rawValue).\($0)" } }

    /// Why a key under `quirks.` that is none of ``configKeys`` is refused: it names the quirks and fields.
    static let unknownKeyReason =
        "is not a quirk's key: quirks.NAME.\(fields.joined(separator: "|")) with NAME one of "
        + Quirk.allCases.map(\.rawValue).joined(separator: ", ")

    /// The quirks `config` sets.
    ///
    /// | key | type | default |
    /// |---|---|---|
    /// | `quirks.<name>.probability` | number in 0…1 | 1 |
    /// | `quirks.<name>.count` | integer ≥ 1 | no limit |
    /// | `quirks.<name>.seed` | integer ≥ 0 | 0 |
    /// | `quirks.<name>.delay` | seconds, or a range `LOW...HIGH` (`500ms...3s`) | `1s...3s` |
    /// - Throws: ``ConfigurationError`` naming the first key out of its range or of the wrong type.
    public static func read(config: ConfigReader) throws(ConfigurationError) -> [Quirk: QuirkSetting] {
        let read = ConfigFieldReader(config: config)
        var settings: [Quirk: QuirkSetting] = [:]
        for quirk in Quirk.allCases {
            let key = { (field: String) in "quirks.\(quirk.rawValue).\(field)" }
            let probability = try read.number(key("probability"), minimum: 0)
            if let probability, probability > 1 {
                throw ConfigurationError(key: key("probability"), reason: "must be a number in 0...1, got \(probability)")
            }
            let count = try read.integer(key("count"), minimum: 1)
            let seed = try read.integer(key("seed"), minimum: 0)
            let delay = try delayRange(key("delay"), read)
            guard probability != nil || count != nil || seed != nil || delay != nil else { continue }
            // Each value was checked above, so the setting cannot be refused.
            settings[quirk] = try? QuirkSetting(
                probability: probability ?? 1, count: count, seed: UInt64(seed ?? 0), delay: delay ?? QuirkSetting.defaultDelay)
        }
        return settings
    }

    /// A delay: a number of seconds, or text as `QuirkSetting.delay(parsing:)` reads it.
    private static func delayRange(_ key: String, _ read: ConfigFieldReader) throws(ConfigurationError) -> ClosedRange<Duration>? {
        let text: String?
        if let number = try? read.number(key, minimum: 0) {
            text = ConfigFieldReader.format(number)
        } else {
            text = try read.string(key)
        }
        guard let text else { return nil }
        do throws(QuirkError) {
            return try QuirkSetting.delay(parsing: text)
        } catch {
            throw ConfigurationError(key: key, reason: "must be seconds or a range LOW...HIGH like 500ms...3s, got \"\(text)\"")
        }
    }
}
