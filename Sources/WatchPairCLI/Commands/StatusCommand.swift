import ArgumentParser

/// `wcctl status`: the session state of one app.
struct StatusCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the app's session state.",
        discussion: """
            Activation state, reachability of the peer app, pairing and installation, the
            peer link, outstanding userInfo transfers, received items not yet taken by the
            app, and the sent, acknowledged and received context versions.

            Text: `key: value` lines under four headings: app (role, pair, activation,
            launch, installation, process), peer (reachability, link, pairing,
            installation, running), queues (transfers, files, received items, messages
            in flight) and context (versions sent, acknowledged, received). --counters
            adds the counters under a last heading, counters: the store's (storeCommits,
            storeReads: transactions since the app started, for benchmarks) and what was
            dropped (diagnosticsDropped: events a slow subscriber lost; eventLinesDropped:
            lines journald or stderr could not take in time, still in `wcctl events`).

            --json: one object with every field, the counters included, with or without
            --counters.

            EXAMPLE
              wcctl --side watch status
              wcctl status --counters
              wcctl --json status | jq .reachable
            """
    )

    @ParentCommand var root: Wcctl

    @Flag(help: "Also show the counters (storeCommits, storeReads, diagnosticsDropped, eventLinesDropped).")
    var counters = false

    func execute(_ context: CommandContext) throws(CLIError) {
        let client = try context.connect()
        let result = try client.call(client.makeRequest("status"), wait: Payload.requestWait)
        if context.json {
            try context.printJSON(result)
        } else {
            for line in OutputFormatter.statusLines(result, counters: counters) { try context.print(line) }
        }
    }
}
