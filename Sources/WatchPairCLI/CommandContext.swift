import ArgumentParser
import Glibc
import WatchPairWire

/// What `wcctl` takes from its process: environment variables, standard streams and signals.
///
/// The executable uses `.process`; tests pass captured streams, their own variables and a pipe they
/// write to instead of sending a signal.
public struct CommandEnvironment {
    /// Environment variables (`WCCTL_SIDE`, `WCCTL_CONTROL`, `WCCTL_RUNTIME_DIR`).
    public var variables: [String: String]
    /// Standard output and error.
    public var streams: any OutputStreams
    /// The descriptor `send-data -` and JSON arguments given as `-` read.
    public var standardInput: Int32
    /// Returns a descriptor that becomes readable when the user asks a `--follow` command to stop
    /// (SIGINT/SIGTERM in the process). Called only by streaming commands.
    public var interruptDescriptor: () throws(CLIError) -> Int32

    /// Creates an environment.
    public init(
        variables: [String: String], streams: any OutputStreams, standardInput: Int32 = STDIN_FILENO,
        interruptDescriptor: @escaping () throws(CLIError) -> Int32
    ) {
        self.variables = variables
        self.streams = streams
        self.standardInput = standardInput
        self.interruptDescriptor = interruptDescriptor
    }

    /// The real process: its environment, file descriptors 0–2, SIGINT/SIGTERM.
    public static var process: CommandEnvironment {
        CommandEnvironment(
            variables: ProcessEnvironment.variables, streams: StandardStreams(),
            interruptDescriptor: { () throws(CLIError) -> Int32 in try SignalInterrupt.install() })
    }
}

/// A resolved invocation: the daemon to talk to, the output form and the process environment.
struct CommandContext {
    let target: ControlTarget
    let json: Bool
    let environment: CommandEnvironment

    var streams: any OutputStreams { environment.streams }

    /// Connects to the daemon's control socket.
    func connect() throws(CLIError) -> ControlClient {
        try ControlClient.connect(to: target)
    }

    /// Connects once the daemon answers: again each time its control socket's directory changes
    /// (``PathAppearance``), until `deadline` (nil: none). Nil at the deadline; any failure other than
    /// "not running" is thrown at once.
    func connectWhenRunning(deadline: ContinuousClock.Instant?) throws(CLIError) -> ControlClient? {
        try PathAppearance.wait(for: target.path, deadline: deadline) { () throws(CLIError) -> ControlClient? in
            do throws(CLIError) {
                return try connect()
            } catch where error.kind == .notRunning {
                return nil  // Not there yet: wait for the socket to appear.
            }
        }
    }

    /// A dictionary payload argument (`JSON`, `@FILE` or `-`), checked like ``Payload/dictionary(_:what:)``.
    func dictionaryArgument(_ argument: String, what: String) throws(CLIError) -> JSONValue {
        try Payload.dictionary(jsonText(argument), what: what)
    }

    /// The JSON text of an argument that may be `@FILE` or `-` (``Payload/jsonText(_:standardInput:)``).
    func jsonText(_ argument: String) throws(CLIError) -> String {
        try Payload.jsonText(argument, standardInput: environment.standardInput)
    }

    /// Prints one line of text.
    func print(_ line: String) throws(CLIError) {
        try streams.printLine(line)
    }

    /// Prints one JSON line.
    func printJSON(_ value: JSONValue) throws(CLIError) {
        try streams.printLine(OutputFormatter.jsonLine(value))
    }
}

/// A leaf command of `wcctl`: parsed by ArgumentParser, run by `WcctlMain` with a context.
protocol WcctlSubcommand: ParsableCommand {
    /// The root command, for the global options.
    var root: Wcctl { get }
    /// Does the work; output goes to `context.streams`.
    func execute(_ context: CommandContext) throws(CLIError)
}

extension WcctlSubcommand {
    /// ArgumentParser's own entry point is not used (`WcctlMain` calls `execute`); this keeps a
    /// stray call from silently doing nothing.
    mutating func run() throws {
        throw CleanExit.helpRequest(self)
    }
}

/// Reads the process environment without Foundation's `ProcessInfo` (one less dependency on startup).
enum ProcessEnvironment {
    /// All `NAME=value` pairs of `environ`.
    static var variables: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") {
                result[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            pointer += 1
        }
        return result
    }
}

extension CommandContext {
    /// Queues the userInfo dictionary `argument` (JSON, `@FILE` or `-`) with `op` (`transfer`, or
    /// `transferComplication`) and prints the transfer's id, or with --json the whole answer; returns the
    /// answer for what a command prints besides.
    @discardableResult
    func transferUserInfo(_ argument: String, with op: String, what: String) throws(CLIError) -> JSONValue {
        let payload = try dictionaryArgument(argument, what: what)
        let client = try connect()
        var request = client.makeRequest(op)
        request.set("userInfo", payload)
        let result = try client.call(request, wait: Payload.requestWait)
        if json {
            try printJSON(result)
        } else {
            try print(result[field: "transferId"].map(OutputFormatter.humanValue) ?? "")
        }
        return result
    }

    /// Cancels an outstanding transfer with `op` (`cancel` for userInfo, `cancelFile` for files) and
    /// prints the outcome: a sentence, or with --json `{"cancelled":true|false,"transferId":"…"}`.
    func cancelTransfer(_ op: String, transferId: String) throws(CLIError) {
        let client = try connect()
        var request = client.makeRequest(op)
        request.set("transferId", transferId)
        let result = try client.call(request, wait: Payload.requestWait)
        let cancelled = result[field: "cancelled"] == .bool(true)
        if json {
            try printJSON(.object(["cancelled": .bool(cancelled), "transferId": .string(transferId)]))
        } else {
            try print(OutputFormatter.cancelLine(transferId: transferId, cancelled: cancelled))
        }
    }
}
