import ArgumentParser

/// `wcctl health`: the reliability layer's health, connection mode and recent suggestions.
struct HealthCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Show the reliability layer's health, connection mode and recovery suggestions.",
        discussion: """
            One JSON object: health (healthy, degraded after 3 failed requests in a row,
            unhealthy after 10: the daemon's layer.degradedAfter and layer.unhealthyAfter;
            each request counts once, also one that failed at once; any answered request
            returns to healthy), isHealthy,
            requiresUserIntervention, connectionMode (passive or active, see `wcctl
            connect`), activated, reachable, pendingRequests (the request queue's length),
            and suggestions: the newest 16 recovery suggestions made, oldest first, each
            {"suggestion","title","message","severity"}.

            EXAMPLE
              wcctl --side watch health | jq -r .health
            """
    )

    @ParentCommand var root: Wcctl

    func execute(_ context: CommandContext) throws(CLIError) {
        let client = try context.connect()
        try context.printJSON(try client.call(client.makeRequest("health"), wait: Payload.requestWait))
    }
}
