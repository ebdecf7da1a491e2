import ArgumentParser
import WatchPairWire

/// `wcctl watches`: a phone's watches (docs/Watches.md).
struct WatchesCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "watches",
        abstract: "List the phone's watches: which is active, paired, installed, reachable, and what is queued for each.",
        discussion: """
            For a phone whose configuration lists several watches ("watches": ["a","b"]).
            One watch is active at a time; the phone's engine is bound to it, and what the
            phone queued for each watch stays that watch's until it is active again.

            Text: a table, one row per watch: NAME, ACTIVE (* for the active one),
            PAIRED, INSTALLED (the watch app, as last seen), REACHABLE (only the bound
            watch can be), and QUEUED: the userInfo transfers, files and context (0 or 1)
            the phone holds for it. A last line gives the session's state: activated, or
            inactive while a switch waits for the old watch's queue to drain.

            --json: {"active":NAME,"session":STATE,"watches":[{"name","active","bound",
            "paired","installed","reachable","queued":{"userInfo","files","context"}}]}.

            A phone with one watch (no "watches" configured) and the watch side answer
            7008 (exit 108).

            EXAMPLE
              wcctl watches
              wcctl --json watches | jq -r .active
            """
    )

    @ParentCommand var root: Wcctl

    func execute(_ context: CommandContext) throws(CLIError) {
        let client = try context.connect()
        let result = try client.call(client.makeRequest("watches"), wait: Payload.requestWait)
        if context.json {
            try context.printJSON(result)
        } else {
            for line in OutputFormatter.watchesLines(result) { try context.print(line) }
        }
    }
}

/// `wcctl switch NAME`: makes another watch active, as the user does in the Watch app.
struct SwitchCommand: WatchNameCommand {
    static let op = "switch"
    static let configuration = CommandConfiguration(
        commandName: "switch",
        abstract: "Make another of the phone's watches active (Apple's watch switching).",
        discussion: """
            What the user does in the iPhone's Watch app. The phone's session goes inactive
            at once: content already queued for the old watch is still delivered, new
            sends and transfers fail with 7016 (exit 116). Once the old watch's queue has
            drained, or its link is gone (its device off), the phone deactivates and
            starts again bound to NAME; what is still queued for the old watch waits until
            it is active again. A watchSwitched event records it; `wcctl wait ready`
            returns once the phone is bound to NAME.

            Prints {"active":NAME,"switching":true,"from":OLD}, or "switching":false
            when NAME was already active (nothing happens).

            Errors: a watch the phone does not list, 7008 (exit 108); one that is not
            paired, 7005 (exit 105); a switch while another is in progress, 7016
            (exit 116): wait for it (`wcctl watches` shows the session inactive).

            EXAMPLE
              wcctl switch right
              wcctl wait ready --timeout 10
            """
    )

    @ParentCommand var root: Wcctl

    @Argument(help: ArgumentHelp("The watch to make active, as the phone's `watches` lists it.", valueName: "name"))
    var name: String

}

/// `wcctl pair NAME`: pairs a watch again after `unpair`.
struct PairWatchCommand: WatchNameCommand {
    static let op = "pair"
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Pair one of the phone's watches again after `unpair`.",
        discussion: """
            The watch must be one the phone's configuration lists. It starts with an empty
            queue (what was queued for it went at `unpair`) and becomes active at the next
            `wcctl switch NAME`. Pairing a paired watch does nothing. Prints
            {"watch":NAME,"paired":true}; a watchPaired event records it.

            EXAMPLE
              wcctl pair left
            """
    )

    @ParentCommand var root: Wcctl

    @Argument(help: ArgumentHelp("The watch to pair, as the phone's `watches` lists it.", valueName: "name"))
    var name: String

}

/// `wcctl unpair NAME`: unpairs a watch, dropping what the phone queued for it.
struct UnpairWatchCommand: WatchNameCommand {
    static let op = "unpair"
    static let configuration = CommandConfiguration(
        commandName: "unpair",
        abstract: "Unpair one of the phone's watches: what was queued for it is dropped.",
        discussion: """
            As on Apple's devices, unpairing drops what the phone queued for the watch
            (userInfo, files, the context), with its state directory and its watch
            directory: the one place WatchPair drops content. A watchUnpaired event says
            how many items went. Prints {"watch":NAME,"paired":false,"dropped":
            {"userInfo":N,"files":N,"context":N}}.

            The daemon always runs bound to a watch: the active watch (or the one a switch
            is leaving) cannot be unpaired (7008, exit 108): switch to another first. A
            watch that is not paired: 7005 (exit 105).

            EXAMPLE
              wcctl switch right && wcctl unpair left
            """
    )

    @ParentCommand var root: Wcctl

    @Argument(help: ArgumentHelp("The watch to unpair, as the phone's `watches` lists it.", valueName: "name"))
    var name: String

}

/// A command on one of the phone's watches: sends its operation for the watch `name` and prints the answer
/// as JSON.
protocol WatchNameCommand: WcctlSubcommand {
    /// The control operation.
    static var op: String { get }
    /// The watch's name.
    var name: String { get }
}

extension WatchNameCommand {
    func execute(_ context: CommandContext) throws(CLIError) {
        let client = try context.connect()
        var request = client.makeRequest(Self.op)
        request["watch"] = .string(name)
        try context.printJSON(try client.call(request, wait: Payload.requestWait))
    }
}
