import ArgumentParser
import WatchPairWire

/// `wcctl uninstall`: the app is "not installed" (docs/Lifecycle.md) until `wcctl install`.
struct UninstallCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "uninstall",
        abstract: "Uninstall this app: the peer's content to it fails at once with 7006 (or 7018).",
        discussion: """
            Records the app as not installed in its state directory, where the peer
            reads it even while this app is not running (it survives restarts and
            reboots). From then on the peer's messages, transfers, contexts and files
            to it fail at once with 7006 (watchAppNotInstalled, on the phone) or 7018
            (companionAppNotInstalled, on the watch) and nothing queues;
            isWatchAppInstalled / isCompanionAppInstalled are false and WCSession apps
            get sessionWatchStateDidChange. Content accepted before stays queued and
            is delivered after `wcctl install`. Prints {"installed":false}.

            A masked socket unit (systemctl mask watchd.socket), or none at all, is
            "not installed" too; a stopped one is a device that is off (content
            queues), and a disabled one is installed (enable only says whether it
            listens from boot).

            EXAMPLE
              wcctl --side watch uninstall
              wcctl transfer '{"n":1}'; echo $?      # 106 (7006 watchAppNotInstalled)
            """
    )

    @ParentCommand var root: Wcctl

    func execute(_ context: CommandContext) throws(CLIError) {
        try setInstalled("uninstall", context)
    }
}

/// `wcctl install`: undoes `uninstall`.
struct InstallCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Install this app again after `uninstall`.",
        discussion: """
            The peer sees the app installed at once; content queued before the uninstall is
            delivered. Prints {"installed":true}.

            EXAMPLE
              wcctl --side watch install
            """
    )

    @ParentCommand var root: Wcctl

    func execute(_ context: CommandContext) throws(CLIError) {
        try setInstalled("install", context)
    }
}

/// Sends `uninstall` or `install` and prints the result.
private func setInstalled(_ op: String, _ context: CommandContext) throws(CLIError) {
    let client = try context.connect()
    try context.printJSON(try client.call(client.makeRequest(op), wait: Payload.requestWait))
}
