import ArgumentParser
import WatchPairVersion

/// `wcbench`: measures WatchPair against this machine's own limits (BENCHMARKS.md).
///
/// The default subcommand is ``RunCommand``; the two hidden ones are helper processes wcbench starts
/// itself (the raw ping-pong's echo end, and the trivial socket-activated program).
@main
struct Wcbench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wcbench",
        abstract: "Benchmark phoned and watchd against this machine's limits, measured in the same run.",
        version: WatchPairVersion.line(name: "wcbench"),
        subcommands: [RunCommand.self, EchoCommand.self, TrivialServerCommand.self],
        defaultSubcommand: RunCommand.self)
}
