import ArgumentParser
import Foundation
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

    /// ArgumentParser's `main`, except that a usage error (a bad option, missing daemons) exits 2, as
    /// `wcctl`'s do and BENCHMARKS.md says, not 64; help and `--version` exit 0, a failed section 1.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(2)
        }
    }
}
