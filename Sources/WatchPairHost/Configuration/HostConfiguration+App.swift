import Foundation
import WatchPairWire

extension HostConfiguration {
    /// The short variables an app built on `WCSession` may use for a key (each wins over the key's own
    /// variable): `WATCHPAIR_LINK`, `WATCHPAIR_PEER_LINK`, `WATCHPAIR_CONTROL`, `WATCHPAIR_PEER_CONTROL`,
    /// `WATCHPAIR_STATE_DIR`.
    public static let appVariableAliases: [(variable: String, key: String)] = [
        ("WATCHPAIR_LINK", "paths.link"), ("WATCHPAIR_PEER_LINK", "paths.peerLink"),
        ("WATCHPAIR_CONTROL", "paths.control"), ("WATCHPAIR_PEER_CONTROL", "paths.peerControl"),
        ("WATCHPAIR_STATE_DIR", "paths.state"),
    ]
    /// The directory of an app's four sockets (`<d>.sock`, `<p>.sock`, `<d>.ctl`, `<p>.ctl`); a socket's
    /// own variable wins over it.
    public static let runDirectoryVariable = "WATCHPAIR_RUN_DIR"

    /// Loads the configuration of an app that chooses its role at run time (a `WCSession` app), with the
    /// daemons' reader (``load(role:options:environment:defaultFileDirectory:)``, every key of
    /// ``init(role:pair:config:)``).
    ///
    /// The role is `WATCHPAIR_ROLE`, else the `role` of the file named by `WATCHPAIR_CONFIG`, else
    /// `phone`. Before reading, ``appVariableAliases`` and ``runDirectoryVariable`` are turned into the
    /// keys' own variables.
    /// - Throws: ``ConfigurationError`` naming the key (or file) at fault.
    public static func loadApp(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        defaultFileDirectory: String = "/etc/watchpair"
    ) async throws(ConfigurationError) -> Loaded {
        let role = try appRole(environment)
        var variables = environment
        for (alias, key) in appVariableAliases {
            if let value = variables.removeValue(forKey: alias), !value.isEmpty {
                variables[environmentVariableName(for: key)] = value
            }
        }
        if let directory = variables.removeValue(forKey: runDirectoryVariable), !directory.isEmpty {
            let sockets = [
                ("paths.link", "\(role.daemonName).sock"), ("paths.peerLink", "\(role.peer.daemonName).sock"),
                ("paths.control", "\(role.daemonName).ctl"), ("paths.peerControl", "\(role.peer.daemonName).ctl"),
            ]
            for (key, file) in sockets where variables[environmentVariableName(for: key)] == nil {
                variables[environmentVariableName(for: key)] = directory + "/" + file
            }
        }
        return try await load(
            role: role, options: CommandLineOptions(), environment: variables, defaultFileDirectory: defaultFileDirectory)
    }

    /// `WATCHPAIR_ROLE`, else the explicit file's `role`, else `.phone`.
    static func appRole(_ environment: [String: String]) throws(ConfigurationError) -> Role {
        var name = environment[environmentVariableName(for: "role")].flatMap { $0.isEmpty ? nil : $0 }
        if name == nil, let path = environment[configFileVariable], !path.isEmpty,
            let contents = FileManager.default.contents(atPath: path),
            case .object(let object)? = try? JSONValue.parse(String(decoding: contents, as: UTF8.self)),
            case .string(let configured)? = object["role"]
        {
            name = configured
        }
        guard let name else { return .phone }
        guard let role = Role(rawValue: name) else {
            throw ConfigurationError(key: "role", reason: "must be one of \"phone\", \"watch\", got \"\(name)\"")
        }
        return role
    }
}
