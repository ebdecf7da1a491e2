import ArgumentParser
import Foundation
import Glibc
import WatchPairWire

/// `wcctl open`: the user opens the app, as tapping it does on a device.
struct OpenCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the app: start it in the foreground, or bring a background launch to the foreground.",
        discussion: """
            What a user's tap on the app does. An app that socket activation launched in
            the background (to deliver content, or for a watch message) moves to the
            foreground: the watch becomes reachable for the phone's messages, and the app
            no longer exits after timeouts.idleExit; it stays up until it is stopped. An
            appOpened event and the timeline show the change. An app already in the
            foreground stays as it is.

            An app that is not running is started with `systemctl start <daemon>.service`
            (`<daemon>@NAME.service` with --pair NAME) when systemd runs this machine
            (a start is a foreground launch); outside systemd, wcctl cannot start a
            process: exit 3.

            `systemctl reload <daemon>.service` does the same for a running app.
            `systemctl start` of an app that is already running does nothing, so it
            cannot bring a background launch to the foreground.

            Prints {"launch":"foreground","opened":BOOL}, with "started":true when
            wcctl started the app.

            EXAMPLE
              wcctl transfer '{"n":1}'           # launches watchd in the background
              wcctl --side watch open            # {"launch":"foreground","opened":true}
              wcctl wait reachable --timeout 5
            """
    )

    @ParentCommand var root: Wcctl

    @Option(help: ArgumentHelp("How long to wait for an app it starts to answer (default 30).", valueName: "seconds"))
    var timeout: Double = 30

    func validate() throws {
        try validateTimeout(timeout)
    }

    func execute(_ context: CommandContext) throws(CLIError) {
        var started = false
        let client: ControlClient
        do throws(CLIError) {
            client = try context.connect()
        } catch where error.kind == .notRunning {
            try Self.start(context.target)
            started = true
            let deadline = ContinuousClock.now.advanced(by: .seconds(timeout))
            guard let answered = try context.connectWhenRunning(deadline: deadline) else {
                throw CLIError(.notRunning, "\(context.target.daemonName) was started but did not answer within \(Duration.seconds(timeout).formattedSeconds)")
            }
            client = answered
        }
        // Also after a start: a start that raced a peer's connection is a background launch.
        var result = try client.call(client.makeRequest("open"), wait: Payload.requestWait)
        if started, case .object(var fields) = result {
            fields["started"] = .bool(true)
            result = .object(fields)
        }
        try context.printJSON(result)
    }

    /// `systemctl start <daemon>.service` (the pair's instance, `<daemon>@NAME.service`), when systemd runs
    /// this machine (`/run/systemd/system`, as `sd_booted()` checks); anything else cannot be started from here.
    private static func start(_ target: ControlTarget) throws(CLIError) {
        let unit = PairName.unit(of: target.role, kind: .service, pair: target.pair)
        guard access("/run/systemd/system", F_OK) == 0 else {
            throw CLIError(
                .notRunning,
                "\(target.daemonName) is not running, and without systemd wcctl cannot start it: start \(target.daemonName) yourself (a start is a foreground launch)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/systemctl")
        process.arguments = ["start", unit]
        do {
            try process.run()
        } catch {
            throw CLIError(.failure, "cannot run systemctl start \(unit): \(error)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CLIError(.notRunning, "systemctl start \(unit) failed (exit \(process.terminationStatus)): \(target.daemonName) is not running")
        }
    }
}
