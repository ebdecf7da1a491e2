import ArgumentParser
import Testing
import WatchPairQuirks
import WatchPairWire

@testable import WatchPairCLI

/// `wcctl quirk list|set|clear`: parsing, local checks with clear errors, and the list's lines.
@Suite("wcctl quirk")
struct QuirkCommandTests {
    func set(_ arguments: [String]) throws -> QuirkCommand.Set {
        try #require(try Wcctl.parseAsRoot(["quirk", "set"] + arguments) as? QuirkCommand.Set)
    }

    @Test func setReadsEveryOption() throws {
        let (quirk, setting) = try set(["lateReply", "--probability", "0.5", "--count", "3", "--seed", "7", "--delay", "1s...3s"]).checked()
        #expect(quirk == .lateReply)
        #expect(setting == (try QuirkSetting(probability: 0.5, count: 3, seed: 7, delay: .seconds(1) ... .seconds(3))))
        let (_, defaults) = try set(["phantomReachability"]).checked()
        #expect(defaults == .always)
    }

    @Test("bad values are usage errors that say what is wrong", arguments: [
        (["lateRepy"], "no quirk named 'lateRepy'; the quirks are: phantomReachability, asymmetricReachability"),
        (["lateReply", "--probability", "1.5"], "probability 1.5 is outside 0...1"),
        (["lateReply", "--count", "0"], "count 0 must be at least 1"),
        (["lateReply", "--delay", "3s...1s"], "delay '3s...1s' is not a duration range"),
        (["lateReply", "--delay", "soon"], "delay 'soon' is not a duration range"),
    ])
    func badValues(arguments: [String], message: String) throws {
        let command = try set(arguments)
        let error = #expect(throws: CLIError.self) { try command.checked() }
        #expect(error?.kind == .usage)
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
    }

    @Test func clearAndListParse() throws {
        #expect(try #require(try Wcctl.parseAsRoot(["quirk", "clear"]) as? QuirkCommand.Clear).name == nil)
        #expect(try #require(try Wcctl.parseAsRoot(["quirk", "clear", "stuckUserInfo"]) as? QuirkCommand.Clear).name == "stuckUserInfo")
        let list = try #require(try Wcctl.parseAsRoot(["--side", "watch", "quirk", "list", "--json"]) as? QuirkCommand.List)
        #expect(list.root.globals.side == .watch && list.root.globals.json)
        #expect(throws: (any Error).self) { try Wcctl.parseAsRoot(["quirk", "set"]) }
    }

    @Test func helpListsEveryQuirkAndExplainsTheOptions() {
        let help = Wcctl.helpMessage(for: QuirkCommand.Set.self)
        for quirk in Quirk.allCases { #expect(help.contains(quirk.rawValue) && help.contains(quirk.summary)) }
        for option in ["--probability", "--count", "--seed", "--delay"] { #expect(help.contains(option)) }
        #expect(Wcctl.helpMessage(for: QuirkCommand.self).contains("quirkInjected"))
    }

    @Test func listLines() {
        let set: JSONValue = .object([
            "name": .string("lateReply"), "set": .bool(true), "summary": .string("late"), "probability": .double(0.5),
            "count": .integer(3), "seed": .integer(7), "delay": .string("1s...3s"), "opportunities": .integer(4),
            "injections": .integer(3), "spent": .bool(true),
        ])
        #expect(QuirkCommand.line(set) == "lateReply               set  p=0.5 count=3 seed=7 delay=1s...3s opportunities=4 injections=3 spent  late")
        let unset: JSONValue = .object(["name": .string("lostReply"), "set": .bool(false), "summary": .string("lost")])
        #expect(QuirkCommand.line(unset) == "lostReply               -    lost")
    }
}
