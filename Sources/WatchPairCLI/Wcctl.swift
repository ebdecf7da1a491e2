import ArgumentParser
import WatchPairVersion

/// The `wcctl` command line: `wcctl [--side phone|watch] [--pair NAME] [--control PATH] [--json] COMMAND`.
///
/// Parsing only; `WcctlMain.run(arguments:environment:)` parses, runs the chosen command and maps every
/// outcome to an exit status (docs/ControlProtocol.md, "Exit status of `wcctl`").
public struct Wcctl: ParsableCommand {
    /// The command tree, with the help that teaches the channels, the value conventions and exit statuses.
    public static let configuration = CommandConfiguration(
        commandName: "wcctl",
        abstract: "Drive the WatchPair apps (phoned, watchd): send, transfer, set context, receive, inspect.",
        discussion: HelpText.root,
        version: WatchPairVersion.line(name: "wcctl"),
        subcommands: [
            StatusCommand.self,
            OpenCommand.self,
            WatchesCommand.self,
            PairWatchCommand.self,
            UnpairWatchCommand.self,
            SwitchCommand.self,
            UninstallCommand.self,
            InstallCommand.self,
            ComplicationCommand.self,
            SendCommand.self,
            SendDataCommand.self,
            TransferCommand.self,
            TransfersCommand.self,
            TransferFileCommand.self,
            FilesCommand.self,
            ContextCommand.self,
            ReceiveCommand.self,
            EventsCommand.self,
            TimelineCommand.self,
            WaitCommand.self,
            RequestCommand.self,
            ServeCommand.self,
            HealthCommand.self,
            QueueCommand.self,
            ConnectCommand.self,
            DisconnectCommand.self,
            SyncCommand.self,
            QuirkCommand.self,
            FrameCommand.self,
        ]
    )

    /// `--side`, `--pair`, `--control`, `--json`.
    @OptionGroup public var globals: GlobalOptions

    /// Creates the command with default options (ArgumentParser fills them in).
    public init() {}
}
