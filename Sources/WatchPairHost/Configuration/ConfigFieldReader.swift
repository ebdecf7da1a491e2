import Configuration
import WatchPairWire

/// Reads one typed value per key from a `ConfigReader`, telling "absent" (use the default) apart from
/// "present but wrong" (a ``ConfigurationError`` naming the key).
///
/// swift-configuration's non-throwing getters return the default both when a key is absent and when its
/// value does not convert, which would hide a typo'd value; its `required…` getters throw in both cases.
/// So this uses the `required…` getters and treats only the library's "missing required value" error as
/// absence.
struct ConfigFieldReader {
    let config: ConfigReader

    /// Seconds as a `Duration`: a finite number in `minimum...1e9`; `exclusiveMinimum` rejects the bound itself.
    func seconds(_ key: String, minimum: Double = 0, exclusiveMinimum: Bool = false) throws(ConfigurationError) -> Duration? {
        guard let value = try read(key, "a number of seconds", { try config.requiredDouble(forKey: ConfigKey(key)) }) else {
            return nil
        }
        let bound = exclusiveMinimum ? "> \(Self.format(minimum))" : "≥ \(Self.format(minimum))"
        guard value.isFinite, exclusiveMinimum ? value > minimum : value >= minimum, value <= 1e9 else {
            throw ConfigurationError(key: key, reason: "must be a number of seconds \(bound) (and at most 1e9), got \(Self.format(value))")
        }
        return .seconds(value)
    }

    /// A finite number ≥ `minimum`.
    func number(_ key: String, minimum: Double) throws(ConfigurationError) -> Double? {
        guard let value = try read(key, "a number", { try config.requiredDouble(forKey: ConfigKey(key)) }) else {
            return nil
        }
        guard value.isFinite, value >= minimum, value <= 1e6 else {
            throw ConfigurationError(key: key, reason: "must be a number ≥ \(Self.format(minimum)) (and at most 1e6), got \(Self.format(value))")
        }
        return value
    }

    /// An integer ≥ `minimum`.
    func integer(_ key: String, minimum: Int) throws(ConfigurationError) -> Int? {
        guard let value = try read(key, "an integer", { try config.requiredInt(forKey: ConfigKey(key)) }) else {
            return nil
        }
        guard value >= minimum else {
            throw ConfigurationError(key: key, reason: "must be an integer ≥ \(minimum), got \(value)")
        }
        return value
    }

    /// A non-empty string without NUL bytes.
    func string(_ key: String) throws(ConfigurationError) -> String? {
        guard let value = try read(key, "a string", { try config.requiredString(forKey: ConfigKey(key)) }) else {
            return nil
        }
        guard !value.isEmpty, !value.utf8.contains(0) else {
            throw ConfigurationError(key: key, reason: "must be a non-empty string without NUL bytes")
        }
        return value
    }

    /// One of `Value`'s raw values.
    func choice<Value: RawRepresentable & CaseIterable>(_ key: String, _: Value.Type) throws(ConfigurationError) -> Value?
    where Value.RawValue == String {
        guard let text = try string(key) else { return nil }
        guard let value = Value(rawValue: text) else {
            let allowed = Value.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw ConfigurationError(key: key, reason: "must be one of \(allowed), got \"\(text)\"")
        }
        return value
    }

    /// A Unix socket path: fits `sun_path` (at most 107 bytes).
    func socketPath(_ key: String) throws(ConfigurationError) -> String? {
        guard let path = try string(key) else { return nil }
        guard path.utf8.count <= 107 else {
            throw ConfigurationError(key: key, reason: "a Unix socket path must be at most 107 bytes, got \(path.utf8.count): \(path)")
        }
        return path
    }

    /// Names, each a valid pair name (``PairName``), none twice.
    func names(_ key: String) throws(ConfigurationError) -> [PairName]? {
        guard let values = try read(key, "a list of names", { try config.requiredStringArray(forKey: ConfigKey(key)) }) else {
            return nil
        }
        var names: [PairName] = []
        for value in values {
            let name: PairName
            do {
                name = try PairName(validating: value)
            } catch {
                throw ConfigurationError(key: key, reason: "\(error)")
            }
            guard !names.contains(name) else {
                throw ConfigurationError(key: key, reason: "\"\(value)\" is listed twice")
            }
            names.append(name)
        }
        return names
    }

    /// Integers, each in `range`.
    func integers(_ key: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> [Int]? {
        guard let values = try read(key, "a list of integers", { try config.requiredIntArray(forKey: ConfigKey(key)) }) else {
            return nil
        }
        if let bad = values.first(where: { !range.contains($0) }) {
            throw ConfigurationError(key: key, reason: "every value must be in \(range.lowerBound)...\(range.upperBound), got \(bad)")
        }
        return values
    }

    /// Runs a `required…` getter: its value, nil when the key is absent, or a ``ConfigurationError``.
    private func read<T>(_ key: String, _ expected: String, _ get: () throws -> T) throws(ConfigurationError) -> T? {
        do {
            return try get()
        } catch {
            if Self.isMissingValue(error) { return nil }
            // Show the offending text when the value is a string (always so for environment variables).
            let got = config.string(forKey: ConfigKey(key)).map { ", got \"\($0)\"" } ?? ""
            throw ConfigurationError(key: key, reason: "must be \(expected)\(got)")
        }
    }

    /// Whether `error` is swift-configuration's `ConfigError.missingRequiredConfigValue` (the type is
    /// `package`, so it is recognised by its type name and description).
    static func isMissingValue(_ error: any Error) -> Bool {
        "\(type(of: error))" == "ConfigError" && "\(error)".hasPrefix("Missing required config value")
    }

    /// `2` rather than `2.0`, for messages.
    static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
