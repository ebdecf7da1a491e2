import ArgumentParser
import WatchPairQuirks
import WatchPairWire

/// `wcctl quirk list|set|clear`: real devices' misbehaviour on demand (docs/Quirks.md).
struct QuirkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quirk",
        abstract: "List, set and clear the quirks of real devices on one app (off by default).",
        discussion: """
            Real watches and phones deviate from WatchConnectivity's documented
            contract in ways apps break on in the field. Each deviation is a quirk that
            this app's daemon reproduces on demand, seeded (the same seed gives the
            same injections), until cleared or the daemon restarts. A quirk set on a
            side is what that side's app observes: `--side watch quirk set lateReply`
            makes the watch's own messages get late replies. Every injection is a
            quirkInjected event (WC_QUIRK names it) in `wcctl events`, the journal and
            the timeline. docs/Quirks.md explains each one and how to defend against it.

            THE QUIRKS
            \(QuirkCommand.catalog)

            The configuration keys quirks.NAME.probability|count|seed|delay (and
            WATCHPAIR_QUIRKS_NAME_PROBABILITY etc.) set quirks from the start.

            EXIT STATUS
              0 done; 2 usage (an unknown quirk, a probability outside 0...1, a count
              below 1, a bad delay); 3 the app's daemon is not running.

            EXAMPLE
              wcctl quirk set lateReply --probability 0.5 --seed 7 --delay 1s...3s
              wcctl quirk list
              wcctl events --event quirkInjected
              wcctl quirk clear
            """,
        subcommands: [List.self, Set.self, Clear.self]
    )

    /// Each quirk's name and its one line, as the help lists them.
    static let catalog = Quirk.allCases.map { "  \($0.rawValue)\n      \($0.summary)" }.joined(separator: "\n")

    /// The quirk named `name`, or a usage error listing the names.
    static func quirk(named name: String) throws(CLIError) -> Quirk {
        do throws(QuirkError) {
            return try Quirk(named: name)
        } catch {
            throw CLIError.usage(error.description)
        }
    }

    /// `wcctl quirk list`.
    struct List: WcctlSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Every quirk: whether it is set on this app, its setting, its counts, what it does.",
            discussion: """
                One line per quirk: its name, `set` or `-`, and for a set quirk its
                probability, count (or unlimited), seed, delay, the opportunities it saw and
                the injections it made (`spent` once count injections happened); then its
                one-line summary. With --json one object: {"quirks": [{"name", "set",
                "summary", "probability", "count", "seed", "delay", "opportunities",
                "injections", "spent"}]}.

                EXAMPLE
                  wcctl --side watch quirk list
                  wcctl quirk list --json | jq '.quirks[] | select(.set)'
                """
        )

        @ParentCommand var root: Wcctl

        func execute(_ context: CommandContext) throws(CLIError) {
            let client = try context.connect()
            let result = try client.call(client.makeRequest("quirkList"), wait: Payload.requestWait)
            try QuirkCommand.printList(result, context)
        }
    }

    /// `wcctl quirk set NAME [--probability P] [--count N] [--seed S] [--delay D]`.
    struct Set: WcctlSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Turn a quirk on (again: its draws and count restart).",
            discussion: """
                Prints the list as `quirk list` does. Absent options take the defaults:
                every opportunity (probability 1), no limit, seed 0, delay 1s...3s.

                THE QUIRKS
                \(QuirkCommand.catalog)

                EXAMPLE
                  wcctl quirk set phantomReachability
                  wcctl --side watch quirk set duplicateUserInfo --count 1
                  wcctl quirk set delayedDelivery --delay 500ms...2s --seed 42
                """
        )

        @ParentCommand var root: Wcctl

        @Argument(help: ArgumentHelp("The quirk (see THE QUIRKS).", valueName: "name"))
        var name: String

        @Option(help: ArgumentHelp("The chance, 0...1, that an opportunity becomes an injection (default 1).", valueName: "p"))
        var probability: Double?

        @Option(help: ArgumentHelp("The most injections, at least 1 (default: no limit).", valueName: "n"))
        var count: Int?

        @Option(help: ArgumentHelp("The seed of the draws: the same seed gives the same injections (default 0).", valueName: "s"))
        var seed: UInt64?

        @Option(
            help: ArgumentHelp(
                "What lateReply, delayedDelivery and installedFlapping hold back: 2s, 250ms, 0.5 (seconds) or a range LOW...HIGH drawn from uniformly (default 1s...3s).",
                valueName: "d"))
        var delay: String?

        /// The quirk and its setting, checked: a usage error names what is wrong.
        func checked() throws(CLIError) -> (Quirk, QuirkSetting) {
            let quirk = try QuirkCommand.quirk(named: name)
            do throws(QuirkError) {
                let range = try delay.map { text throws(QuirkError) in try QuirkSetting.delay(parsing: text) } ?? QuirkSetting.defaultDelay
                return (quirk, try QuirkSetting(probability: probability ?? 1, count: count, seed: seed ?? 0, delay: range))
            } catch {
                throw CLIError.usage(error.description)
            }
        }

        func execute(_ context: CommandContext) throws(CLIError) {
            let (quirk, setting) = try checked()
            let client = try context.connect()
            var request = client.makeRequest("quirkSet")
            request.set("name", quirk.rawValue)
            request.set("probability", setting.probability)
            request.set("count", setting.count.map { Int64($0) })
            request.set("seed", setting.seed)
            request.set("delay", QuirkSetting.text(setting.delay))
            let result = try client.call(request, wait: Payload.requestWait)
            try QuirkCommand.printList(result, context)
        }
    }

    /// `wcctl quirk clear [NAME]`.
    struct Clear: WcctlSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "clear",
            abstract: "Turn one quirk off, or every quirk; what it held back is released at once.",
            discussion: """
                Prints the list as `quirk list` does.

                EXAMPLE
                  wcctl quirk clear lateReply
                  wcctl --side watch quirk clear
                """
        )

        @ParentCommand var root: Wcctl

        @Argument(help: ArgumentHelp("The quirk; none: every quirk.", valueName: "name"))
        var name: String?

        func execute(_ context: CommandContext) throws(CLIError) {
            let quirk = try name.map { name throws(CLIError) in try QuirkCommand.quirk(named: name) }
            let client = try context.connect()
            var request = client.makeRequest("quirkClear")
            request.set("name", quirk?.rawValue)
            let result = try client.call(request, wait: Payload.requestWait)
            try QuirkCommand.printList(result, context)
        }
    }

    /// A `quirkList`/`quirkSet`/`quirkClear` result: --json the object, else one line per quirk.
    static func printList(_ result: JSONValue, _ context: CommandContext) throws(CLIError) {
        if context.json { return try context.printJSON(result) }
        for quirk in result[field: "quirks"]?.arrayElements ?? [] {
            try context.print(line(quirk))
        }
    }

    /// `lateReply  set  p=0.5 count=3 seed=7 delay=1s...3s  opportunities=4 injections=2  the reply arrives…`.
    static func line(_ quirk: JSONValue) -> String {
        let name = (quirk[field: "name"]?.stringValue ?? "?").padding(toLength: 24, withPad: " ", startingAt: 0)
        let summary = quirk[field: "summary"]?.stringValue ?? ""
        guard quirk[field: "set"] == .bool(true) else { return "\(name)-    \(summary)" }
        func text(_ key: String) -> String { quirk[field: key].map { $0 == .null ? "unlimited" : $0.canonicalText } ?? "?" }
        let spent = quirk[field: "spent"] == .bool(true) ? " spent" : ""
        return "\(name)set  p=\(text("probability")) count=\(text("count")) seed=\(text("seed")) "
            + "delay=\(quirk[field: "delay"]?.stringValue ?? "?") opportunities=\(text("opportunities")) "
            + "injections=\(text("injections"))\(spent)  \(summary)"
    }
}
