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
            adds the store's counters (storeCommits, storeReads: transactions since the
            app started, for benchmarks) under a last heading, counters.

            --json: one object with every field, the counters included, with or without
            --counters.

            EXAMPLE
              wcctl --side watch status
              wcctl status --counters
              wcctl --json status | jq .reachable
            """
    )

    @ParentCommand var root: Wcctl

    @Flag(help: "Also show the store's counters (storeCommits, storeReads).")
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
