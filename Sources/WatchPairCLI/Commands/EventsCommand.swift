import ArgumentParser

/// `wcctl events [--follow]`: the daemon's diagnostic events.
struct EventsCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print the app's diagnostic events as JSON lines.",
        discussion: """
            The same events the daemon writes to the journal (sessionActivated,
            reachabilityChanged, messageSent, userInfoDelivered, …), one JSON object per
            line, oldest first. Without --follow: the recent events, then exit. With
            --follow: then every new event, until Ctrl-C (exit 0) or until the daemon
            stops (exit 3).

            EXAMPLE
              wcctl events
              wcctl --side watch events --follow |
                jq -c 'select(.event=="userInfoDelivered")'
            """
    )

    @ParentCommand var root: Wcctl

    @Flag(help: "Keep printing new events until interrupted.")
    var follow = false

    func execute(_ context: CommandContext) throws(CLIError) {
        let client = try context.connect()
        var request = client.makeRequest(.events)
        guard follow else {
            let result = try client.call(request, wait: Payload.requestWait)
            for event in result[field: "events"]?.arrayElements ?? [] { try context.printJSON(event) }
            return
        }
        let interrupt = try context.environment.interruptDescriptor()
        request.follow = true
        try client.send(request)
        while let response = try client.next(deadline: nil, interruptDescriptor: interrupt) {
            guard response.id == request.id else { continue }
            if let kind = response.event {
                if kind == "end" { throw ReceiveSession.streamEnded(client) }
                try context.printJSON(response.data ?? .object([:]))
            } else {
                _ = try ControlClient.result(of: response)
            }
        }
    }
}
