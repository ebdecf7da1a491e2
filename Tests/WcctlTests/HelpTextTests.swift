import ArgumentParser
import Testing

@testable import WatchPairCLI

/// Help that can be pasted: ArgumentParser re-wraps any line wider than the terminal (80 columns when
/// not a terminal), which breaks an example command in the middle; so every line stays narrower.
@Suite("Help text")
struct HelpTextTests {
    /// Every command of the tree, depth first.
    static func commands(_ root: any ParsableCommand.Type = Wcctl.self) -> [any ParsableCommand.Type] {
        [root] + root.configuration.subcommands.flatMap { commands($0) }
    }

    @Test("every discussion line fits in 79 columns (examples paste as written)")
    func linesFit() {
        for command in Self.commands() {
            for line in command.configuration.discussion.split(separator: "\n") where line.count > 79 {
                Issue.record("\(command._commandName): \(line.count) columns: \(line)")
            }
        }
    }

    @Test("an example's command never ends in the middle of a quoted JSON argument")
    func examplesAreWhole() {
        for command in Self.commands() {
            for line in command.configuration.discussion.split(separator: "\n") where line.contains("wcctl ") {
                let quotes = line.filter { $0 == "'" }.count
                #expect(quotes % 2 == 0, "\(command._commandName): \(line)")
            }
        }
    }
}
