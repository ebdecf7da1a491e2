import ArgumentParser
import WatchPairWire

/// `wcctl --side watch complication enable|disable`: the watch app's complication (DESIGN §11).
struct ComplicationCommand: WcctlSubcommand {
    /// What the command sets.
    enum Setting: String, ExpressibleByArgument, CaseIterable {
        case enable, disable
    }

    static let configuration = CommandConfiguration(
        commandName: "complication",
        abstract: "Enable or disable the watch app's complication (the phone's isComplicationEnabled).",
        discussion: """
            On the watch only (7008 on the phone). Recorded in the watch app's state
            directory beside its installation record, so the phone knows it while the
            watch app is not running; WCSession phone apps get
            sessionWatchStateDidChange, and `wcctl status` on the phone shows
            "peerComplicationEnabled". Prints {"complicationEnabled":true}.

            EXAMPLE
              wcctl --side watch complication enable
              wcctl --json status | grep -o '"peerComplicationEnabled":[a-z]*'
            """
    )

    @ParentCommand var root: Wcctl

    @Argument(help: "enable or disable")
    var setting: Setting

    func execute(_ context: CommandContext) throws(CLIError) {
        let client = try context.connect()
        var request = client.makeRequest(.setComplication)
        request.enabled = setting == .enable
        try context.printJSON(try client.call(request, wait: Payload.requestWait))
    }
}
