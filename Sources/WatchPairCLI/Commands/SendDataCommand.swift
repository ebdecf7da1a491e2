import ArgumentParser
import Foundation
import WatchPairWire

/// `wcctl send-data FILE|-`: `sendMessageData` with bytes.
struct SendDataCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "send-data",
        abstract: "Send a live data message (sendMessageData) and print the reply bytes.",
        discussion: """
            \(HelpText.message)

            Reads the message bytes from FILE, or from standard input with -. Writes the
            reply bytes to standard output as they are; with --json prints
            {"reply":{"$data":"<base64>"}} instead ({} with --no-reply).

            EXAMPLE
              printf 'ping' | wcctl send-data - > reply.bin
              wcctl --json send-data photo.jpg --timeout 5
            """
    )

    @ParentCommand var root: Wcctl

    @Argument(help: ArgumentHelp("File with the message bytes, or - for standard input.", valueName: "file"))
    var file: String

    @Flag(name: .customLong("no-reply"), help: "Send without a reply handler; succeed once delivered.")
    var noReply = false

    @Option(help: ArgumentHelp("Seconds to wait for the reply (default: the daemon's, 10 s).", valueName: "seconds"))
    var timeout: Double?

    func validate() throws {
        try validateTimeout(timeout)
    }

    func execute(_ context: CommandContext) throws(CLIError) {
        let bytes = try Payload.readBytes(
            file, standardInput: context.environment.standardInput, limit: Payload.maxDataBytes)
        let client = try context.connect()
        var request = client.makeRequest("sendData")
        request.set("data", Data(bytes).base64EncodedString())
        request.set("noReply", noReply ? true : nil)
        request.set("timeout", timeout)
        let result = try client.call(request, wait: Payload.replyWait(timeout: timeout))
        guard let reply = result[field: "reply"] else {
            if context.json { try context.printJSON(.object([:])) }
            return try throwErrorAfterReply(result)
        }
        guard case .string(let base64) = reply, let replyBytes = Data(base64Encoded: base64) else {
            throw CLIError(.failure, "\(client.target.daemonName) sent a reply that is not base64")
        }
        if context.json {
            try context.printJSON(.object(["reply": .object(["$data": .string(base64)])]))
        } else {
            try context.streams.writeOut(Array(replyBytes))
        }
        try throwErrorAfterReply(result)
    }
}
