import ArgumentParser
import WatchPairWire

/// `wcctl files` (list) and `wcctl files cancel ID`.
struct FilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "files",
        abstract: "List outstanding outgoing files and received files, or cancel a file transfer.",
        discussion: """
            Outgoing files are outstanding until the other app holds them, verified.
            Received files are in the app's files/ directory (<state directory>/files/).

            EXAMPLE
              wcctl files
              wcctl --side watch --json files | jq -r 'select(.received) | .path'
              wcctl files cancel 9B2E4C1A-0F57-4D55-A1B6-3C1D2E3F4A5B
            """,
        subcommands: [List.self, Cancel.self],
        defaultSubcommand: List.self
    )

    /// `wcctl files [list]`.
    struct List: WcctlSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List outstanding outgoing files (oldest first) and received files (the default).",
            discussion: """
                Text: `outgoing <id>  <name>  <percent>%  <acknowledged>/<size> bytes` per
                outstanding file, then `received <path>  <size> bytes` per received file.
                --json: one object per line: {"outgoing":{…}} with acknowledged, createdAt,
                fileName, isTransferring, metadata, seq, size and transferId, or
                {"received":{…}} with name, path, receivedAt and size.

                EXAMPLE
                  wcctl files
                """
        )

        @ParentCommand var root: Wcctl

        func execute(_ context: CommandContext) throws(CLIError) {
            let client = try context.connect()
            let result = try client.call(client.makeRequest("files"), wait: Payload.requestWait)
            let outgoing = result[field: "outgoing"]?.arrayElements ?? []
            let received = result[field: "received"]?.arrayElements ?? []
            if context.json {
                for file in outgoing { try context.printJSON(.object(["outgoing": file])) }
                for file in received { try context.printJSON(.object(["received": file])) }
                return
            }
            if outgoing.isEmpty, received.isEmpty {
                try context.print("no outstanding or received files")
            }
            for file in outgoing { try context.print(Self.outgoingLine(file)) }
            for file in received {
                try context.print("received \(file[field: "path"]?.stringValue ?? "?")  \(file[field: "size"]?.unsignedValue ?? 0) bytes")
            }
        }

        /// `outgoing <id>  <name>  <percent>%  <acknowledged>/<size> bytes`.
        static func outgoingLine(_ file: JSONValue) -> String {
            let size = file[field: "size"]?.unsignedValue ?? 0
            let acknowledged = file[field: "acknowledged"]?.unsignedValue ?? 0
            let percent = size == 0 ? 0 : acknowledged * 100 / size
            let id = file[field: "transferId"]?.stringValue ?? "?"
            let name = file[field: "fileName"]?.stringValue ?? "?"
            return "outgoing \(id)  \(name)  \(percent)%  \(acknowledged)/\(size) bytes"
        }
    }

    /// `wcctl files cancel ID`.
    struct Cancel: WcctlSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "cancel",
            abstract: "Cancel an outstanding file transfer.",
            discussion: """
                The other app never gets it, and no partial file is left there. Succeeds also
                when it is no longer outstanding; the output says which. --json prints
                {"cancelled":true|false,"transferId":"…"}.

                EXAMPLE
                  wcctl files cancel 9B2E4C1A-0F57-4D55-A1B6-3C1D2E3F4A5B
                """
        )

        @ParentCommand var root: Wcctl

        @Argument(help: ArgumentHelp("The transfer id that `wcctl transfer-file` printed.", valueName: "id"))
        var transferId: String

        func execute(_ context: CommandContext) throws(CLIError) {
            try context.cancelTransfer("cancelFile", transferId: transferId)
        }
    }
}
