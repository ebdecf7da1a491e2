import ArgumentParser

/// `wcctl transfer JSON`: `transferUserInfo`.
struct TransferCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "transfer",
        abstract: "Queue a userInfo transfer (transferUserInfo) and print its id.",
        discussion: """
            \(HelpText.userInfo)

            Returns once the transfer is durable on this side. Prints the transfer id;
            --json prints {"isTransferring":true,"seq":n,"transferId":"…"}. See
            `wcctl transfers` for what is still outstanding.

            EXAMPLE
              id=$(wcctl transfer \\
                '{"workout":{"km":5.2,"at":{"$date":"2024-05-01T07:00:00Z"}}}')
              wcctl transfers cancel "$id"
            """
    )

    @ParentCommand var root: Wcctl

    @Argument(help: ArgumentHelp("The userInfo dictionary: a JSON object, @FILE or - (standard input).", valueName: "json"))
    var userInfo: String

    func execute(_ context: CommandContext) throws(CLIError) {
        try context.transferUserInfo(userInfo, with: "transfer", what: "userInfo")
    }
}
