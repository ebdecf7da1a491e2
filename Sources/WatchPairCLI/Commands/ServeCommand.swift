import ArgumentParser
import WatchPairWire

/// `wcctl serve TYPE`: act as the app's handler of one typed request type (docs/WatchConnection.md).
struct ServeCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Act as the app's handler for a request type: print each request, answer it.",
        discussion: """
            Registers the handler of TYPE in the app's WatchConnection and prints each
            request it runs as one JSON line, {"type":"TYPE","body":{…}}, until Ctrl-C or
            SIGTERM (exit 0) or the daemon stops (exit 3). The layer runs the handler at
            most once per request id: a retried, fallen-back or flushed repeat is
            answered from the recorded response and not printed again.

            Each request is answered with --reply (any JSON; default {}), or, as an
            app-level fault, with --error CODE (the sender gets 7014 naming the type and
            the code); --delay S holds each request S seconds first (past the sender's
            retry timeout: 7012). With --reply-from CMD, `/bin/sh -c CMD` runs once per
            request with the body on its standard input, and its standard output (JSON)
            is the response; a command that fails or prints no JSON answers with error
            7001 (the sender gets 7014). The newest serve of a type replaces an older
            one; when it exits, requests of TYPE are answered "no handler" (7014) again.

            EXAMPLE
              wcctl serve FetchRecipe --reply '{"title":"Soup"}'
              wcctl serve Sync --delay 15            # the request times out
              wcctl serve Sync --error 7011
              wcctl serve Count --reply-from 'jq "{seen: .n}"'
            """
    )

    @ParentCommand var root: Wcctl

    @Argument(help: ArgumentHelp("The request type's wire name.", valueName: "type"))
    var requestType: String

    @Option(help: ArgumentHelp("Answer each request with this JSON (or @FILE, -); default {}.", valueName: "json"))
    var reply: String?

    @Option(name: .customLong("reply-from"), help: ArgumentHelp(
        "Answer each request with the JSON this shell command prints, given the body on standard input.", valueName: "command"))
    var replyFrom: String?

    @Option(help: ArgumentHelp("Answer each request with this WCError code instead (an app-level fault).", valueName: "code"))
    var error: Int?

    @Option(help: ArgumentHelp("Take this long over each request before answering.", valueName: "seconds"))
    var delay: Double?

    func validate() throws {
        if requestType.isEmpty { throw ValidationError("the request type must not be empty") }
        if [reply != nil, error != nil, replyFrom != nil].filter({ $0 }).count > 1 {
            throw ValidationError("--reply, --reply-from and --error exclude each other: a request gets one answer")
        }
        if replyFrom != nil && delay != nil {
            throw ValidationError("--delay applies to --reply and --error; a --reply-from command takes its own time")
        }
        try validateErrorCode(error)
        if let delay, !(delay >= 0 && delay <= 86_400) {
            throw ValidationError("--delay must be a number of seconds in [0, 86400], not \(delay)")
        }
    }

    func execute(_ context: CommandContext) throws(CLIError) {
        var replyValue: JSONValue?
        if let reply {
            let text = try context.jsonText(reply)
            do throws(WCFailure) {
                replyValue = try JSONValue.parse(text)
            } catch {
                throw CLIError(WCFailure(.invalidParameter, "--reply: \(error.message)"))
            }
        }
        let client = try context.connect()
        var request = client.makeRequest("serve")
        request.set("requestType", requestType)
        request.set("autoReply", replyValue)
        request.set("autoError", error)
        request.set("autoDelay", delay)
        request.set("answers", replyFrom == nil ? nil : true)
        try client.send(request)
        let interrupt = try context.environment.interruptDescriptor()
        while let response = try client.next(deadline: nil, interruptDescriptor: interrupt) {
            guard response.id == request.id else { continue }
            guard let kind = response.event else {
                _ = try ControlClient.result(of: response)
                continue
            }
            if kind == "end" { throw ReceiveSession.streamEnded(client) }
            guard kind == "request", let data = response.data else { continue }
            var shown = data
            if case .object(var fields) = data {
                fields["token"] = nil
                shown = .object(fields)
            }
            try context.printJSON(shown)
            if let replyFrom, case .integer(let token)? = data[field: "token"] {
                var answer = client.makeRequest("respond")
                answer.set("token", UInt64(token))
                if let output = ReplyCommand.run(replyFrom, input: (data[field: "body"] ?? .null).canonicalText) {
                    answer.set("reply", output)
                } else {
                    answer.set("errorCode", WCErrorCode.genericError.rawValue)
                }
                try client.send(answer)
            }
        }
    }
}
