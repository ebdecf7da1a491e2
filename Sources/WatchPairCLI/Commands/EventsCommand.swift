import ArgumentParser
import Foundation
import WatchPairTimeline
import WatchPairWire

/// `wcctl events [--both] [--follow] [--since T] [--event E] [--channel C] [-n N]`: the apps'
/// diagnostic events, kept across restarts.
struct EventsCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print the apps' diagnostic events, oldest first, timestamped.",
        discussion: """
            The same events the daemons write to the journal (foregroundLaunch,
            messageSent, userInfoDelivered, …), one per line: UTC time to the
            microsecond, app, event, sentence, fields. --json prints each as a JSON
            object instead. Each app keeps its history across restarts (the newest
            5,000 to 10,000 events, in its state directory). --both merges both apps'
            events by time; an app that is not running is left out with a warning.
            Without --follow: the history, then exit. With --follow: then every new
            event as it arrives, until Ctrl-C (exit 0) or until a daemon stops (exit 3);
            --follow --since T prints the history from T on, then the live events,
            with no gap and none twice.

            EXAMPLE
              wcctl events --both --since 10m
              wcctl events --both --channel userInfo -n 20
              wcctl --side watch events --follow --event userInfoDelivered --json
              wcctl events --both --follow -n 10
              wcctl events --follow --since 2m
            """
    )

    @ParentCommand var root: Wcctl

    @Flag(help: "Both apps' events, merged by time (the runtime directory's phoned.ctl and watchd.ctl).")
    var both = false

    @Flag(help: "Keep printing new events until interrupted.")
    var follow = false

    @Option(help: ArgumentHelp("Only events at or after T: an ISO 8601 time, or an age such as 90s, 15m, 2h, 1d.", valueName: "T"))
    var since: String?

    @Option(name: .customLong("event"), help: ArgumentHelp("Only events named E (repeatable), e.g. messageFailed.", valueName: "E"))
    var kinds: [String] = []

    @Option(name: .customLong("channel"), help: ArgumentHelp("Only events of channel C (repeatable): message, userInfo, applicationContext.", valueName: "C"))
    var channels: [String] = []

    @Option(name: .customShort("n"), help: ArgumentHelp("Only the newest N events (of the history, with --follow).", valueName: "N"))
    var last: Int?

    func validate() throws {
        if let since { _ = try SinceArgument.validated(since) }
        if let last, last < 0 { throw ValidationError("-n must be 0 or more, not \(last)") }
        let known = ["message", "userInfo", "applicationContext"]
        for channel in channels where !known.contains(channel) {
            throw ValidationError("--channel '\(channel)' is not a channel (message, userInfo, applicationContext)")
        }
    }

    func execute(_ context: CommandContext) throws(CLIError) {
        let targets = both ? try EventQuery.bothTargets(root.globals, environment: context.environment.variables) : [context.target]
        let selection = EventSelection(
            since: try since.map { text throws(CLIError) in try SinceArgument.parse(text, now: EventTimestamp.microseconds(Date())) },
            kinds: Set(kinds), channels: Set(channels), last: last)
        guard follow else {
            for event in selection.apply(try EventQuery.events(of: targets, context: context)) { try print(event, context) }
            return
        }
        // Following needs every app: one that is not running is exit 3, as for a single app.
        var clients: [ControlClient] = []
        for target in targets { clients.append(try ControlClient.connect(to: target)) }
        let interrupt = try context.environment.interruptDescriptor()
        var stream = try EventFollow(clients: clients, since: selection.since)
        try stream.run(selection, interrupt: interrupt) { event throws(CLIError) in try print(event, context) }
    }

    private func print(_ event: SessionEvent, _ context: CommandContext) throws(CLIError) {
        if context.json { try context.printJSON(event.json) } else { try context.print(event.textLine) }
    }
}
