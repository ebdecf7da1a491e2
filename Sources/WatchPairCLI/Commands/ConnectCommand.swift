import ArgumentParser
import WatchPairWire

/// `wcctl connect` and `wcctl disconnect`: the reliability layer's connection mode.
struct ConnectCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Switch the reliability layer to active mode: queued requests flush when the peer is reachable.",
        discussion: """
            Prints {"connectionMode":"active"}. The mode lasts while the app runs; a
            restarted app starts passive (its persisted queue waits for `connect`).

            EXAMPLE
              wcctl --side watch connect
            """
    )

    @ParentCommand var root: Wcctl

    func execute(_ context: CommandContext) throws(CLIError) {
        try setMode("connect", context)
    }
}

/// `wcctl disconnect`.
struct DisconnectCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "disconnect",
        abstract: "Switch the reliability layer to passive mode, cancelling every pending request.",
        discussion: """
            Every request in flight or queued ends with 7001 (cancelled) at its sender.
            Prints {"connectionMode":"passive"}.
            """
    )

    @ParentCommand var root: Wcctl

    func execute(_ context: CommandContext) throws(CLIError) {
        try setMode("disconnect", context)
    }
}

/// Sends `connect` or `disconnect` and prints the result.
private func setMode(_ op: String, _ context: CommandContext) throws(CLIError) {
    let client = try context.connect()
    try context.printJSON(try client.call(client.makeRequest(op), wait: Payload.requestWait))
}
