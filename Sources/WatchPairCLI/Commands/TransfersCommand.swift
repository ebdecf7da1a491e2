import ArgumentParser

/// `wcctl transfers` (list) and `wcctl transfers cancel ID`.
struct TransfersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transfers",
        abstract: "List outstanding userInfo transfers, or cancel one.",
        discussion: """
            \(HelpText.userInfo)

            A transfer is outstanding until the other app has received it.

            EXAMPLE
              wcctl transfers
              wcctl transfers cancel 9B2E4C1A-0F57-4D55-A1B6-3C1D2E3F4A5B
            """,
        subcommands: [List.self, Cancel.self],
        defaultSubcommand: List.self
    )

    /// `wcctl transfers [list]`.
    struct List: WcctlSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List outstanding userInfo transfers, oldest first (the default).",
            discussion: """
                Text: one line per transfer, `<id>  seq <n>  <createdAt>  <userInfo>`.
                --json: one object per transfer and line, with the keys createdAt,
                isTransferring, seq, transferId and userInfo; nothing when there is none.

                EXAMPLE
                  wcctl --json transfers | jq -r .transferId
                """
        )

        @ParentCommand var root: Wcctl

        func execute(_ context: CommandContext) throws(CLIError) {
            let client = try context.connect()
            let result = try client.call(client.makeRequest("transfers"), wait: Payload.requestWait)
            let transfers = result[field: "transfers"]?.arrayElements ?? []
            if context.json {
                for transfer in transfers { try context.printJSON(transfer) }
            } else if transfers.isEmpty {
                try context.print("no outstanding transfers")
            } else {
                for transfer in transfers { try context.print(OutputFormatter.transferLine(transfer)) }
            }
        }
    }

    /// `wcctl transfers cancel ID`.
    struct Cancel: WcctlSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "cancel",
            abstract: "Cancel an outstanding userInfo transfer.",
            discussion: """
                Succeeds also when the transfer is no longer outstanding (already received
                or cancelled); the output says which. --json prints
                {"cancelled":true|false,"transferId":"…"}.

                EXAMPLE
                  wcctl transfers cancel 9B2E4C1A-0F57-4D55-A1B6-3C1D2E3F4A5B
                """
        )

        @ParentCommand var root: Wcctl

        @Argument(help: ArgumentHelp("The transfer id that `wcctl transfer` printed.", valueName: "id"))
        var transferId: String

        func execute(_ context: CommandContext) throws(CLIError) {
            try context.cancelTransfer("cancel", transferId: transferId)
        }
    }
}
