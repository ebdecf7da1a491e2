import ArgumentParser
import Glibc

/// Runs `wcctl`: parse, execute, map the outcome to an exit status.
public enum WcctlMain {
    /// The executable's entry point: ignores SIGPIPE, runs with the real process environment, exits.
    public static func main() -> Never {
        // A closed pipe must be an EPIPE error that ends the command in order (nothing acknowledged that
        // was not printed), never a death in the middle of a write.
        _ = signal(SIGPIPE, SIG_IGN)
        let status = run(arguments: Array(CommandLine.arguments.dropFirst()), environment: .process)
        exit(status)
    }

    /// Parses `arguments` (without the program name), runs the command and returns the exit status.
    ///
    /// Help (`--help`, `help COMMAND`) goes to standard output with status 0. A usage error, or a
    /// command group given without its subcommand, prints the message and usage to standard error with
    /// status 2 (a mistyped command word gets a "did you mean" line instead). A failed command prints its
    /// one-line error to standard error and returns `CLIError.exitStatus`; standard output closed by its
    /// reader (`wcctl transfers | head -1`) ends the command quietly with status 0.
    public static func run(arguments: [String], environment: CommandEnvironment) -> Int32 {
        let streams = environment.streams
        var parsed: any ParsableCommand
        do {
            parsed = try Wcctl.parseAsRoot(arguments)
        } catch {
            if Wcctl.exitCode(for: error) != .success, let suggestion = CommandSuggestion.message(for: arguments) {
                streams.writeErr(suggestion + "\n")
                return ExitStatus.usage
            }
            return reportParseOutcome(error, streams: streams)
        }
        guard let command = parsed as? any WcctlSubcommand else {
            let type = type(of: parsed)
            if !type.configuration.subcommands.isEmpty {
                // `wcctl` or `wcctl context` alone: say what could follow, in ArgumentParser's format.
                let name = type == Wcctl.self ? "wcctl" : "wcctl " + type._commandName
                streams.writeErr(
                    "Error: Missing subcommand for '\(name)'.\n"
                        + "Usage: \(Wcctl.usageString(for: type))\n"
                        + "  See '\(name) --help' for more information.\n")
                return ExitStatus.usage
            }
            do {
                try parsed.run()  // ArgumentParser's own commands, e.g. `help`.
                return ExitStatus.success
            } catch {
                return reportParseOutcome(error, streams: streams)
            }
        }
        do {
            let target = try command.root.globals.target(environment: environment.variables)
            let context = CommandContext(target: target, json: command.root.globals.json, environment: environment)
            try command.execute(context)
            return ExitStatus.success
        } catch {
            // The reader went away (`| head`): it has what it wanted; nothing more to say.
            if error.kind == .outputClosed { return ExitStatus.success }
            streams.writeErr(error.line + "\n")
            return error.exitStatus
        }
    }

    /// Help to stdout (0); any other parse error to stderr with usage (2).
    private static func reportParseOutcome(_ error: any Error, streams: any OutputStreams) -> Int32 {
        let text = Wcctl.fullMessage(for: error)
        if Wcctl.exitCode(for: error) == .success {
            try? streams.printLine(text)
            return ExitStatus.success
        }
        streams.writeErr(text + "\n")
        return ExitStatus.usage
    }
}
