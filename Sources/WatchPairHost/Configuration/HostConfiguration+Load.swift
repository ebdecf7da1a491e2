import Configuration
import Foundation
import WatchPairWire

extension HostConfiguration {
    /// The variable naming the config file when `--config` is not given.
    public static let configFileVariable = "WATCHPAIR_CONFIG"
    /// The prefix of every environment override.
    public static let environmentPrefix = "WATCHPAIR_"
    /// The prefix of the quirks' environment variables (``QuirkSettings``).
    static let quirkVariablePrefix = environmentPrefix + "QUIRKS_"

    /// A loaded configuration and what looked wrong without being fatal.
    public struct Loaded: Sendable {
        /// The configuration.
        public var configuration: HostConfiguration
        /// The config file that was read, or nil when the default file is absent.
        public var file: String?
        /// Unknown keys in the file or unknown `WATCHPAIR_*` variables (ignored; likely typos), one sentence each.
        public var warnings: [String]
    }

    /// Loads the configuration the way the daemons do at start-up.
    ///
    /// Sources, highest priority first: `WATCHPAIR_*` environment variables (see
    /// ``environmentVariableName(for:)``), then the JSON file, then the defaults of `options.pair`. The file
    /// is `options.configPath`, else `$WATCHPAIR_CONFIG`, else `<defaultFileDirectory>/<daemon>.json`
    /// (`<defaultFileDirectory>/<pair>/<daemon>.json` for a named pair); only the default file may be missing.
    /// - Throws: ``ConfigurationError`` for a missing explicit file, a file that is not a JSON object, or
    ///   any bad value (see ``init(role:pair:config:)``).
    public static func load(
        role: Role,
        options: CommandLineOptions,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        defaultFileDirectory: String = "/etc/watchpair"
    ) async throws(ConfigurationError) -> Loaded {
        let explicit = options.configPath ?? environment[configFileVariable].flatMap { $0.isEmpty ? nil : $0 }
        let path = explicit ?? Self.defaultFile(role: role, pair: options.pair, directory: defaultFileDirectory)
        var warnings: [String] = []
        // A quirk misspelt would silently not be set, and the test run it was for would prove nothing.
        let quirkVariables = Set(QuirkSettings.configKeys.map(environmentVariableName(for:)))
        if let unknown = environment.keys.sorted().first(where: { $0.hasPrefix(quirkVariablePrefix) && !quirkVariables.contains($0) }) {
            throw ConfigurationError(key: unknown, reason: QuirkSettings.unknownKeyReason)
        }
        var providers: [any ConfigProvider] = [environmentProvider(environment, warnings: &warnings)]
        var file: String?
        if let contents = FileManager.default.contents(atPath: path) {
            warnings += try checkFile(contents, path: path)
            do {
                let fileReader = ConfigReader(provider: InMemoryProvider(values: ["filePath": ConfigValue(.string(path), isSecret: false)]))
                providers.append(try await FileProvider<JSONSnapshot>(config: fileReader))
            } catch {
                throw ConfigurationError(key: path, reason: "cannot be read as JSON: \(error)")
            }
            file = path
        } else if explicit != nil || FileManager.default.fileExists(atPath: path) {
            let why = FileManager.default.fileExists(atPath: path) ? "cannot be read (permissions?)" : "no such file"
            throw ConfigurationError(key: path, reason: why)
        }
        let configuration = try HostConfiguration(role: role, pair: options.pair, config: ConfigReader(providers: providers))
        return Loaded(configuration: configuration, file: file, warnings: warnings)
    }

    /// The config file read when none is named: `<directory>/<daemon>.json`, in the pair's subdirectory
    /// for a named pair (`/etc/watchpair/ci-3/phoned.json`).
    public static func defaultFile(role: Role, pair: PairName?, directory: String = "/etc/watchpair") -> String {
        PairName.directory(directory, pair: pair) + "/\(role.daemonName).json"
    }

    /// `WATCHPAIR_` + the key's components upper-cased, camelCase split with `_`:
    /// `timeouts.idleExit` → `WATCHPAIR_TIMEOUTS_IDLE_EXIT`, `allowedUIDs` → `WATCHPAIR_ALLOWED_UIDS`.
    public static func environmentVariableName(for key: String) -> String {
        let components = key.split(separator: ".").map { component -> String in
            var result = ""
            var previous: Character?
            for character in component {
                if let previous, previous.isLowercase, character.isUppercase { result.append("_") }
                result += character.isLetter || character.isNumber ? character.uppercased() : "_"
                previous = character
            }
            return result
        }
        return environmentPrefix + components.joined(separator: "_")
    }

    /// The `WATCHPAIR_*` variables with the prefix removed, as swift-configuration's environment provider
    /// expects them; unknown names are reported in `warnings`.
    static func environmentProvider(_ environment: [String: String], warnings: inout [String]) -> EnvironmentVariablesProvider {
        let known = Set(keys.map(environmentVariableName(for:)))
        var stripped: [String: String] = [:]
        for (name, value) in environment where name.hasPrefix(environmentPrefix) && name != configFileVariable {
            if !known.contains(name) {
                warnings.append("environment variable \(name) is not a configuration key and is ignored")
            }
            stripped[String(name.dropFirst(environmentPrefix.count))] = value
        }
        return EnvironmentVariablesProvider(environmentVariables: stripped)
    }

    /// Checks that the file is one JSON object and lists its unknown keys, with a precise parse error
    /// (swift-configuration's own message does not say where the JSON is broken).
    static func checkFile(_ contents: Data, path: String) throws(ConfigurationError) -> [String] {
        let json: JSONValue
        do {
            json = try JSONValue.parse(String(decoding: contents, as: UTF8.self))
        } catch {
            throw ConfigurationError(key: path, reason: error.message)
        }
        guard case .object(let object) = json else {
            throw ConfigurationError(key: path, reason: "must hold one JSON object")
        }
        let known = Set(keys)
        let leaves = leaves(object, prefix: "").sorted { $0.key < $1.key }
        if let unknown = leaves.first(where: { $0.key.hasPrefix("quirks.") && !known.contains($0.key) }) {
            throw ConfigurationError(key: unknown.key, reason: QuirkSettings.unknownKeyReason)
        }
        // No key takes true/false or null; swift-configuration would read `true` as the number 1.
        for (key, value) in leaves where known.contains(key) {
            let elements: [JSONValue] = if case .array(let array) = value { array } else { [value] }
            for element in elements {
                switch element {
                case .bool(let flag): throw ConfigurationError(key: key, reason: "must not be \(flag), see docs/Configuration.md for its type")
                case .null: throw ConfigurationError(key: key, reason: "must not be null; leave the key out for its default")
                default: continue
                }
            }
        }
        return leaves.filter { !known.contains($0.key) }.map {
            "\(path): key \($0.key) is not a configuration key and is ignored"
        }
    }

    /// The non-object values of a nested JSON object, by dotted path.
    private static func leaves(_ object: [String: JSONValue], prefix: String) -> [(key: String, value: JSONValue)] {
        object.flatMap { key, value -> [(key: String, value: JSONValue)] in
            let path = prefix.isEmpty ? key : prefix + "." + key
            if case .object(let nested) = value { return leaves(nested, prefix: path) }
            return [(path, value)]
        }
    }
}
