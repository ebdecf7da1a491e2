/// A configuration value that cannot be used: which key, and why.
///
/// The daemon stops at start-up with exit status ``exitStatus`` (78, `EX_CONFIG`) and one line on stderr,
/// `<daemon>: config: <key>: <reason>` (see ``line(daemon:)``). For problems with the file itself (missing
/// explicit file, malformed JSON) the key is the file's path.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The dotted key (e.g. `timeouts.reply`) or, for file problems, the config file's path.
    public var key: String
    /// Why the value was refused, e.g. `must be a number of seconds ≥ 0, got -1`.
    public var reason: String

    /// Creates an error for `key`.
    public init(key: String, reason: String) {
        self.key = key
        self.reason = reason
    }

    /// `EX_CONFIG` from sysexits.h.
    public static let exitStatus: Int32 = 78

    /// `config: <key>: <reason>`.
    public var description: String { "config: \(key): \(reason)" }

    /// The stderr line, e.g. `phoned: config: timeouts.reply: must be a number of seconds ≥ 0, got -1`.
    public func line(daemon: String) -> String { "\(daemon): \(description)" }
}
