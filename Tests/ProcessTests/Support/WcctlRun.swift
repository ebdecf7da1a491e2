import WatchPairWire

/// One finished `wcctl` invocation: arguments, exit status, output.
struct WcctlRun: Sendable, CustomStringConvertible {
    /// The arguments after `wcctl`.
    var arguments: [String]
    /// The exit status (128 + signal when killed).
    var status: Int32
    /// Standard output, one entry per line.
    var stdout: [String]
    /// Standard error, whole.
    var stderr: String

    /// Each stdout line parsed as JSON (a line that is not JSON fails the caller's expectation later).
    var json: [JSONValue] { stdout.compactMap { try? JSONValue.parse($0) } }

    /// The single stdout line parsed as JSON, or nil.
    var object: JSONValue? {
        guard stdout.count == 1 else { return nil }
        return try? JSONValue.parse(stdout[0])
    }

    /// For failure messages: the command, its status and its output.
    var description: String {
        "wcctl \(arguments.joined(separator: " ")) → exit \(status)\n  stdout: \(stdout.joined(separator: "\n          "))\n  stderr: \(stderr)"
    }
}

extension JSONValue {
    /// Parses `text`, or nil when it is not JSON.
    static func from(_ text: String) -> JSONValue? { try? JSONValue.parse(text) }
}
