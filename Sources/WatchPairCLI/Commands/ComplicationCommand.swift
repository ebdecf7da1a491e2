import ArgumentParser
import WatchPairWire

/// `wcctl complication JSON` (phone: `transferCurrentComplicationUserInfo`) and
/// `wcctl --side watch complication enable|disable` (the watch app's complication): docs/Complications.md.
struct ComplicationCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "complication",
        abstract: "Send complication data (phone), or enable or disable the watch app's complication (watch).",
        discussion: """
            complication JSON (phone): transferCurrentComplicationUserInfo. The JSON
            object (or @FILE, or - for standard input) is checked like `transfer`'s and
            reaches the watch app as userInfo flagged isCurrentComplicationInfo, in order
            with other userInfo. Prints the transfer id, then `remaining N`: complication
            transfers left today (50 a UTC day by default, `complications.dailyBudget`).
            At 0 the transfer still goes, as plain userInfo. Fails with 7001 while the
            watch app's complication is disabled, 7008 on the watch side. --json prints
            {"isCurrentComplicationInfo":true,"remaining":49,"seq":n,"transferId":"…",…}.

            complication enable|disable (watch only; 7008 on the phone): recorded in the
            watch app's state directory beside its installation record, so the phone knows
            it while the watch app is not running; WCSession phone apps get
            sessionWatchStateDidChange, and `wcctl status` on the phone shows
            "peerComplicationEnabled". Prints {"complicationEnabled":true}.

            EXAMPLE
              wcctl --side watch complication enable
              wcctl complication '{"temperature":21}'     # the id, then remaining 49
              wcctl --json status | grep -o '"complicationTransfersRemaining":[0-9]*'
            """
    )

    @ParentCommand var root: Wcctl

    @Argument(help: ArgumentHelp(
        "enable or disable (watch), or the complication userInfo (phone): a JSON object, @FILE or -.",
        valueName: "enable|disable|json"))
    var argument: String

    func execute(_ context: CommandContext) throws(CLIError) {
        switch argument {
        case "enable", "disable":
            let client = try context.connect()
            var request = client.makeRequest("setComplication")
            request.set("enabled", argument == "enable")
            try context.printJSON(try client.call(request, wait: Payload.requestWait))
        default:
            let result = try context.transferUserInfo(argument, with: "transferComplication", what: "complication userInfo")
            if !context.json {
                try context.print("remaining \(result[field: "remaining"].map(OutputFormatter.humanValue) ?? "0")")
            }
        }
    }
}
