import ArgumentParser
import WatchPairVersion

/// `wcbench`: measures WatchPair against this machine's own limits (BENCHMARKS.md).
///
/// The default subcommand is ``RunCommand``; the hidden ones are helper processes wcbench starts itself
/// (the raw ping-pong's echo end, the relay floor's relays, the trivial socket-activated program, and the
/// layer section's apps).
@main
struct Wcbench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wcbench",
        abstract: "Benchmark phoned and watchd against this machine's limits, measured in the same run.",
        version: WatchPairVersion.line(name: "wcbench"),
        subcommands: [RunCommand.self, EchoCommand.self, RelayCommand.self, TrivialServerCommand.self, SyncFloorCommand.self, LayerAppCommand.self],
        defaultSubcommand: RunCommand.self)
}
