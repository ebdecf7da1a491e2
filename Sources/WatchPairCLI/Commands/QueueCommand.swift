import ArgumentParser
import Foundation

/// `wcctl queue` (list) and `wcctl queue cancel ID|--all`: the layer's persisted request queue.
struct QueueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue",
        abstract: "List the reliability layer's queued requests, or cancel them.",
        discussion: """
            Requests sent with --mode queued that cannot go now wait in the app's queue
            (persisted in its state directory: they survive kill -9), at most 100, for at
            most 1 h, and flush in order when the peer is reachable in active mode
            (`wcctl connect`).

            EXAMPLE
              wcctl --side watch queue
              wcctl --side watch queue cancel --all
            """,
        subcommands: [List.self, Cancel.self],
        defaultSubcommand: List.self
    )

    /// `wcctl queue [list]`.
    struct List: WcctlSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List queued requests, oldest first (the default).",
            discussion: """
                One JSON object per request and line: requestId, type, strategy,
                enqueuedAt; nothing when the queue is empty.
                """
        )

        @ParentCommand var root: Wcctl

        func execute(_ context: CommandContext) throws(CLIError) {
            let client = try context.connect()
            let result = try client.call(client.makeRequest("queue"), wait: Payload.requestWait)
            for request in result[field: "requests"]?.arrayElements ?? [] { try context.printJSON(request) }
        }
    }

    /// `wcctl queue cancel ID|--all`.
    struct Cancel: WcctlSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "cancel",
            abstract: "Cancel a queued request, or all of them; their senders get 7001.",
            discussion: """
                Prints {"cancelled": n}: how many requests left the queue (0 when the id is
                no longer queued).

                EXAMPLE
                  wcctl --side watch queue cancel E621E1F8-C36C-495A-93FC-0C247A3E6E5F
                """
        )

        @ParentCommand var root: Wcctl

        @Argument(help: ArgumentHelp("The request id that `wcctl queue` printed.", valueName: "id"))
        var requestId: String?

        @Flag(help: "Cancel every queued request.")
        var all = false

        func validate() throws {
            guard (requestId != nil) != all else { throw ValidationError("give a request id or --all, not both or neither") }
            if let requestId, UUID(uuidString: requestId) == nil {
                throw ValidationError("'\(requestId)' is not a request id (a UUID, as `wcctl queue` prints)")
            }
        }

        func execute(_ context: CommandContext) throws(CLIError) {
            let client = try context.connect()
            var request = client.makeRequest("queueCancel")
            request.set("requestId", requestId)
            request.set("all", all ? true : nil)
            try context.printJSON(try client.call(request, wait: Payload.requestWait))
        }
    }
}
