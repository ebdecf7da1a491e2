import Foundation
import WatchPairCore
import WatchPairWire

extension WCSessionConfiguration {
    /// Reads the configuration the way `phoned`/`watchd` read theirs: `WATCHPAIR_*` environment variables
    /// over a JSON file over the defaults, with the daemons' keys (docs/Configuration.md).
    ///
    /// The file is `$WATCHPAIR_CONFIG` (it must exist), else `/etc/watchpair/<phoned|watchd>.json` when
    /// it exists. Each key's variable is `WATCHPAIR_` + the key upper-cased, `.` and camelCase boundaries
    /// turned into `_`. Only the role is required. Keys read here (others, such as `backoff.*` or
    /// `log.*`, are ignored, so a daemon's file can be used as is):
    ///
    /// | key | variable | type | default |
    /// |---|---|---|---|
    /// | `role` | `WATCHPAIR_ROLE` | `phone` or `watch` | `phone` |
    /// | `pairId` | `WATCHPAIR_PAIR_ID` | string | `default` |
    /// | `runDirectory` | `WATCHPAIR_RUN_DIR` | directory of the four sockets below | `/run/watchpair` |
    /// | `paths.link` | `WATCHPAIR_PATHS_LINK` or `WATCHPAIR_LINK` | socket path | `<run>/<d>.sock` |
    /// | `paths.peerLink` | `WATCHPAIR_PATHS_PEER_LINK` or `WATCHPAIR_PEER_LINK` | socket path | `<run>/<p>.sock` |
    /// | `paths.control` | `WATCHPAIR_PATHS_CONTROL` or `WATCHPAIR_CONTROL` | socket path | `<run>/<d>.ctl` |
    /// | `paths.peerControl` | `WATCHPAIR_PATHS_PEER_CONTROL` or `WATCHPAIR_PEER_CONTROL` | socket path | `<run>/<p>.ctl` |
    /// | `paths.state` | `WATCHPAIR_PATHS_STATE` or `WATCHPAIR_STATE_DIR` | directory | `/var/lib/watchpair/<d>` |
    /// | `durability` | `WATCHPAIR_DURABILITY` | `power` or `process` | `power` |
    /// | `limits.message` | `WATCHPAIR_LIMITS_MESSAGE` | bytes ≥ 1 | `65536` |
    /// | `limits.userInfo` | `WATCHPAIR_LIMITS_USER_INFO` | bytes ≥ 1 | `65536` |
    /// | `limits.applicationContext` | `WATCHPAIR_LIMITS_APPLICATION_CONTEXT` | bytes ≥ 1 | `262144` |
    /// | `queues.outbox` | `WATCHPAIR_QUEUES_OUTBOX` | integer ≥ 1 | `10000` |
    /// | `queues.inbox` | `WATCHPAIR_QUEUES_INBOX` | integer ≥ 1 | `10000` |
    /// | `timeouts.reply` | `WATCHPAIR_TIMEOUTS_REPLY` | seconds > 0 | `10` |
    /// | `timeouts.handshake` | `WATCHPAIR_TIMEOUTS_HANDSHAKE` | seconds > 0 | `5` |
    /// | `keepAlive.interval` | `WATCHPAIR_KEEP_ALIVE_INTERVAL` | seconds ≥ 0 (0: off) | `2` |
    /// | `keepAlive.timeout` | `WATCHPAIR_KEEP_ALIVE_TIMEOUT` | seconds > 0 | `6` |
    /// | `allowedUIDs` | `WATCHPAIR_ALLOWED_UIDS` | integers (comma-separated) | `[0]`, plus this uid |
    /// | `launch` | `WATCHPAIR_LAUNCH` | `auto`, `foreground` or `background` | `auto` |
    /// | `listenFDName` | `WATCHPAIR_LISTEN_FDNAME` | string | `<d>` |
    ///
    /// `<d>` is `phoned` or `watchd` for this side, `<p>` the counterpart's. Without a role the app is
    /// the phone app (`WATCHPAIR_ROLE` unset means `phone`).
    /// - Throws: `WCSessionConfigurationError` naming the first missing or invalid key.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(WCSessionConfigurationError) {
        try self.init(environment: environment, defaultFileDirectory: "/etc/watchpair")
    }

    /// As `init(environment:)`, looking for the default file in `defaultFileDirectory` (nil: none).
    init(environment: [String: String], defaultFileDirectory: String?) throws(WCSessionConfigurationError) {
        var source = Source(environment: environment, file: [:])
        if let path = environment["WATCHPAIR_CONFIG"], !path.isEmpty {
            source.file = try Self.readFile(path)
        }
        // An app is the iPhone app unless told otherwise, as an app built for iOS is.
        let roleName = try source.string("role") ?? Role.phone.rawValue
        guard let role = Role(rawValue: roleName) else {
            throw WCSessionConfigurationError(key: "role", message: "'\(roleName)' is neither phone nor watch")
        }
        if environment["WATCHPAIR_CONFIG"].map(\.isEmpty) ?? true, let directory = defaultFileDirectory {
            let path = directory + "/" + role.daemonName + ".json"
            if FileManager.default.fileExists(atPath: path) { source.file = try Self.readFile(path) }
        }
        let runDirectory = try source.string("runDirectory", alias: "WATCHPAIR_RUN_DIR") ?? "/run/watchpair"
        self.init(role: role, runDirectory: runDirectory)
        pairId = try source.string("pairId") ?? pairId
        linkSocketPath = try source.socketPath("paths.link", alias: "WATCHPAIR_LINK") ?? linkSocketPath
        peerLinkSocketPath = try source.socketPath("paths.peerLink", alias: "WATCHPAIR_PEER_LINK") ?? peerLinkSocketPath
        controlSocketPath = try source.socketPath("paths.control", alias: "WATCHPAIR_CONTROL") ?? controlSocketPath
        peerControlSocketPath = try source.socketPath("paths.peerControl", alias: "WATCHPAIR_PEER_CONTROL") ?? peerControlSocketPath
        stateDirectory = try source.string("paths.state", alias: "WATCHPAIR_STATE_DIR") ?? stateDirectory
        durability = try source.choice("durability", Durability.self) ?? durability
        limits.message = try source.integer("limits.message") ?? limits.message
        limits.userInfo = try source.integer("limits.userInfo") ?? limits.userInfo
        limits.applicationContext = try source.integer("limits.applicationContext") ?? limits.applicationContext
        outboxLimit = try source.integer("queues.outbox") ?? outboxLimit
        inboxLimit = try source.integer("queues.inbox") ?? inboxLimit
        replyTimeout = try source.seconds("timeouts.reply") ?? replyTimeout
        handshakeTimeout = try source.seconds("timeouts.handshake") ?? handshakeTimeout
        if let interval = try source.seconds("keepAlive.interval", allowZero: true) {
            keepAlive.interval = interval == .zero ? nil : interval
        }
        keepAlive.timeout = try source.seconds("keepAlive.timeout") ?? keepAlive.timeout
        if let uids = try source.integers("allowedUIDs") { allowedUIDs = Set(uids.map(UInt32.init)).union([UInt32(getuid())]) }
        if let launchName = try source.string("launch"), launchName != "auto" {
            guard let mode = LaunchMode(rawValue: launchName) else {
                throw WCSessionConfigurationError(key: "launch", message: "'\(launchName)' is not auto, foreground or background")
            }
            launch = mode
        }
        listenFDName = try source.string("listenFDName") ?? listenFDName
    }

    /// The JSON object in `path`.
    static func readFile(_ path: String) throws(WCSessionConfigurationError) -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw WCSessionConfigurationError(key: path, message: "cannot be read (missing, or permissions)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw WCSessionConfigurationError(key: path, message: "is not a JSON object")
        }
        return object
    }

    /// `WATCHPAIR_` + `key` upper-cased, camelCase split with `_` (the daemons' rule):
    /// `paths.peerLink` → `WATCHPAIR_PATHS_PEER_LINK`.
    static func environmentVariable(for key: String) -> String {
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
        return "WATCHPAIR_" + components.joined(separator: "_")
    }

    /// Environment first (the short alias, then the key's variable), then the file.
    struct Source {
        var environment: [String: String]
        var file: [String: Any]

        /// The raw value of `key` and where it came from.
        private func raw(_ key: String, alias: String?) -> (value: Any, from: String)? {
            for variable in [alias, environmentVariable(for: key)].compactMap({ $0 }) {
                if let value = environment[variable], !value.isEmpty { return (value, variable) }
            }
            var object: Any? = file
            for part in key.split(separator: ".") { object = (object as? [String: Any])?[String(part)] }
            return object.map { ($0, key) }
        }

        func string(_ key: String, alias: String? = nil) throws(WCSessionConfigurationError) -> String? {
            guard let (value, from) = raw(key, alias: alias) else { return nil }
            guard let string = value as? String, !string.isEmpty, !string.contains("\0") else {
                throw WCSessionConfigurationError(key: from, message: "must be a non-empty string")
            }
            return string
        }

        func socketPath(_ key: String, alias: String? = nil) throws(WCSessionConfigurationError) -> String? {
            guard let path = try string(key, alias: alias) else { return nil }
            guard path.utf8.count <= 107 else {
                throw WCSessionConfigurationError(key: key, message: "'\(path)' is longer than 107 bytes (sun_path)")
            }
            return path
        }

        func choice<T: RawRepresentable & CaseIterable>(_ key: String, _: T.Type) throws(WCSessionConfigurationError) -> T?
        where T.RawValue == String {
            guard let name = try string(key) else { return nil }
            guard let value = T(rawValue: name) else {
                let allowed = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw WCSessionConfigurationError(key: key, message: "must be one of \(allowed), got \"\(name)\"")
            }
            return value
        }

        func number(_ key: String) throws(WCSessionConfigurationError) -> (Double, String)? {
            guard let (value, from) = raw(key, alias: nil) else { return nil }
            if let text = value as? String {
                guard let number = Double(text) else { throw WCSessionConfigurationError(key: from, message: "'\(text)' is not a number") }
                return (number, from)
            }
            guard let number = value as? NSNumber, !PropertyListBridge.isBoolean(number) else {
                throw WCSessionConfigurationError(key: from, message: "must be a number")
            }
            return (number.doubleValue, from)
        }

        func integer(_ key: String) throws(WCSessionConfigurationError) -> Int? {
            guard let (number, from) = try number(key) else { return nil }
            guard number >= 1, number <= 1e15, number.rounded() == number else {
                throw WCSessionConfigurationError(key: from, message: "must be a whole number ≥ 1, got \(number)")
            }
            return Int(number)
        }

        func seconds(_ key: String, allowZero: Bool = false) throws(WCSessionConfigurationError) -> Duration? {
            guard let (number, from) = try number(key) else { return nil }
            guard number.isFinite, number <= 1e9, allowZero ? number >= 0 : number > 0 else {
                throw WCSessionConfigurationError(key: from, message: "must be a number of seconds \(allowZero ? "≥" : ">") 0, got \(number)")
            }
            return .nanoseconds(Int64((number * 1e9).rounded()))
        }

        func integers(_ key: String) throws(WCSessionConfigurationError) -> [Int]? {
            guard let (value, from) = raw(key, alias: nil) else { return nil }
            let items: [Any]
            if let text = value as? String {
                items = text.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            } else if let array = value as? [Any] {
                items = array
            } else {
                throw WCSessionConfigurationError(key: from, message: "must be a list of integers")
            }
            return try items.map { item throws(WCSessionConfigurationError) -> Int in
                let number = (item as? String).flatMap(Int.init) ?? (item as? NSNumber).map(\.intValue)
                guard let number, number >= 0, number <= Int(UInt32.max) else {
                    throw WCSessionConfigurationError(key: from, message: "'\(item)' is not a uid")
                }
                return number
            }
        }
    }
}
