import ArgumentParser

/// `wcctl context set JSON` and `wcctl context get [--received]`.
struct ContextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "context",
        abstract: "Set or show the application context.",
        discussion: """
            \(HelpText.applicationContext)

            EXAMPLE
              wcctl context set '{"theme":"dark"}'
              wcctl --side watch context get --received
            """,
        subcommands: [SetCommand.self, GetCommand.self]
    )

    /// `wcctl context set JSON`.
    struct SetCommand: WcctlSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Replace the application context (updateApplicationContext).",
            discussion: """
                \(HelpText.applicationContext)

                Prints the context version; an update identical to the last one sent
                keeps the version and is not re-sent. --json prints
                {"changed":true|false,"version":n}.

                EXAMPLE
                  wcctl context set '{"theme":"dark","at":{"$date":"2024-05-01T12:00:00Z"}}'
                  wcctl context set '{}'       # clears it
                  wcctl context set @context.json   # from a file (up to 262,144 bytes)
                  jq -c . context.json | wcctl context set -
                """
        )

        @ParentCommand var root: Wcctl

        @Argument(help: ArgumentHelp("The new context: a JSON object, @FILE or - (standard input).", valueName: "json"))
        var context: String

        func execute(_ context: CommandContext) throws(CLIError) {
            let payload = try context.dictionaryArgument(self.context, what: "context")
            let client = try context.connect()
            var request = client.makeRequest("contextSet")
            request.set("context", payload)
            let result = try client.call(request, wait: Payload.requestWait)
            if context.json {
                try context.printJSON(result)
            } else {
                try context.print(OutputFormatter.contextSetLine(result))
            }
        }
    }

    /// `wcctl context get [--received]`.
    struct GetCommand: WcctlSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "get",
            abstract: "Print the last context sent (applicationContext) or received.",
            discussion: """
                Prints the context as one JSON line ({} when there is none). --json prints
                {"context":{…},"version":n}.

                EXAMPLE
                  wcctl context get
                  wcctl --side watch context get --received
                """
        )

        @ParentCommand var root: Wcctl

        @Flag(help: "The last context received from the peer (receivedApplicationContext).")
        var received = false

        func execute(_ context: CommandContext) throws(CLIError) {
            let client = try context.connect()
            var request = client.makeRequest("contextGet")
            request.set("received", received)
            let result = try client.call(request, wait: Payload.requestWait)
            if context.json {
                try context.printJSON(result)
            } else {
                try context.printJSON(result[field: "context"] ?? .object([:]))
            }
        }
    }
}
