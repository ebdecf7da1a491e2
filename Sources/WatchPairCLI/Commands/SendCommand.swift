import ArgumentParser
import WatchPairWire

/// `wcctl send JSON`: `sendMessage` with a dictionary.
struct SendCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a live message (sendMessage) and print the reply.",
        discussion: """
            \(HelpText.message)

            The message is a JSON object ({"$data":…} and {"$date":…} for bytes and
            dates). Prints the reply dictionary as one JSON line; with --no-reply the
            receiver gets a message without a reply handler and nothing is printed.
            --json prints {"reply":{…}} ({} with --no-reply).

            EXAMPLE
              wcctl send '{"ping":1}'            # {"pong":1}; exit 107 if unreachable
              wcctl send --no-reply '{"tap":true}'
              wcctl send @message.json

              # 7012: the watch app takes 5 s, the phone waits 2 s (exit 112)
              wcctl --side watch receive --follow --reply '{}' --delay 5 &
              wcctl --side watch wait handler --timeout 10
              wcctl send --timeout 2 '{"slow":true}'
            """
    )

    @ParentCommand var root: Wcctl

    @Argument(help: ArgumentHelp("The message: a JSON object, @FILE or - (standard input).", valueName: "json"))
    var message: String

    @Flag(name: .customLong("no-reply"), help: "Send without a reply handler; succeed once delivered.")
    var noReply = false

    @Option(help: ArgumentHelp("Seconds to wait for the reply (default: the daemon's, 10 s).", valueName: "seconds"))
    var timeout: Double?

    func validate() throws {
        try validateTimeout(timeout)
    }

    func execute(_ context: CommandContext) throws(CLIError) {
        let payload = try context.dictionaryArgument(message, what: "message")
        let client = try context.connect()
        var request = client.makeRequest("send")
        request.set("message", payload)
        request.set("noReply", noReply ? true : nil)
        request.set("timeout", timeout)
        let result = try client.call(request, wait: Payload.replyWait(timeout: timeout))
        if context.json {
            try context.printJSON(result)
        } else if !noReply {
            try context.printJSON(result[field: "reply"] ?? .object([:]))
        }
        try throwErrorAfterReply(result)
    }
}

/// The `replyAndError` quirk: the reply (already printed) was followed by an error, which is the exit status.
func throwErrorAfterReply(_ result: JSONValue) throws(CLIError) {
    guard let error = result[field: "errorAfterReply"] else { return }
    let code = Int(error[field: "code"]?.integerValue ?? Int64(WCErrorCode.genericError.rawValue))
    let name = error[field: "name"]?.stringValue ?? "genericError"
    throw CLIError(.wcError(code: code, name: name), "after the reply: \(error[field: "message"]?.stringValue ?? "an error")")
}

/// `--timeout` must be a positive, finite number of seconds.
func validateTimeout(_ timeout: Double?) throws {
    if let timeout, !(timeout > 0 && timeout.isFinite) {
        throw ValidationError("--timeout must be a positive number of seconds, not \(timeout)")
    }
}
