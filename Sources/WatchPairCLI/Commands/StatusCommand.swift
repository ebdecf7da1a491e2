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

            Text: aligned `key: value` lines. --json: one object with the same keys.

            EXAMPLE
              wcctl --side watch status
              wcctl --json status | jq .reachable
            """
    )

    @ParentCommand var root: Wcctl

    func execute(_ context: CommandContext) throws(CLIError) {
        let client = try context.connect()
        let result = try client.call(client.makeRequest(.status), wait: Payload.requestWait)
        if context.json {
            try context.printJSON(result)
        } else {
            for line in OutputFormatter.statusLines(result) { try context.print(line) }
        }
    }
}
