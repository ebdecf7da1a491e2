import Foundation
import Logging
import Systemd
import WatchPairHost
import WatchPairTransport
import WatchPairWire

/// The whole of `phoned`'s and `watchd`'s `main`: arguments, configuration, logging, build, run, exit.
public enum DaemonMain {
    /// Makes NIO's event-loop threads the executor of every task (``EventLoopExecutor/installAsGlobalExecutor()``):
    /// the first statement of `main`, on the main thread, before any task is created.
    public static func runTasksOnEventLoops() {
        EventLoopExecutor.installAsGlobalExecutor()
    }

    /// Runs the daemon playing `role` and exits the process.
    ///
    /// Exit status: 0 after a graceful stop (SIGTERM, SIGINT, idle exit) or `--help`; 64 for bad
    /// arguments; 78 for a bad configuration (stderr: `<daemon>: config: <key>: <why>`); 1 when the
    /// daemon cannot start or a service fails (stderr: `<daemon>: <why>`).
    public static func run(
        role: Role,
        arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async -> Never {
        exit(await status(role: role, arguments: arguments, environment: environment))
    }

    /// Everything ``run(role:arguments:environment:)`` does, returning the exit status instead of exiting.
    static func status(role: Role, arguments: [String], environment: [String: String]) async -> Int32 {
        let name = role.daemonName
        let options: CommandLineOptions
        do {
            options = try CommandLineOptions.parse(arguments)
        } catch {
            printError("\(name): \(error.message)\nUsage: \(name) [--config PATH] [--pair NAME]; see \(name) --help")
            return UsageError.exitStatus
        }
        if options.showHelp {
            print(CommandLineOptions.helpText(role: role))
            return 0
        }
        if options.showVersion {
            print(CommandLineOptions.versionLine(role: role))
            return 0
        }

        let loaded: DaemonConfiguration.Loaded
        do {
            loaded = try await DaemonConfiguration.load(role: role, options: options, environment: environment)
        } catch {
            printError(error.line(daemon: name))
            return ConfigurationError.exitStatus
        }
        let configuration = loaded.configuration
        // The only place logging is bootstrapped: the libraries just take a Logger.
        let destination: JournaldLogHandler.Destination = switch configuration.log.destination {
        case .auto: .automatic
        case .journal: .journal
        case .stderr: .stderr
        }
        let level = configuration.log.level
        let pair = configuration.pair
        LoggingSystem.bootstrap { label in
            var handler = JournaldLogHandler(label: label, identifier: name, destination: destination)
            handler.logLevel = level
            // Log records name their pair too, as events do (`journalctl WC_PAIR=NAME`).
            if let pair { handler.metadata["WC_PAIR"] = .string(pair.rawValue) }
            return handler
        }
        let logger = Logger(label: "watchpair.\(name)")
        for warning in loaded.warnings {
            logger.warning("\(warning)")
        }
        logger.info(
            "starting",
            metadata: [
                "config": "\(loaded.file ?? "(defaults; \(DaemonConfiguration.defaultFile(role: role, pair: pair)) absent)")",
                "control": "\(configuration.paths.control)", "state": "\(configuration.paths.state)",
            ])

        if !configuration.watches.isEmpty {
            return await runWithWatches(configuration: configuration, logger: logger)
        }
        let daemon: Daemon
        do {
            daemon = try await buildDaemon(configuration: configuration, logger: logger)
        } catch {
            printError("\(name): \(error.message)")
            return error.exitStatus
        }
        do {
            try await daemon.run()
        } catch {
            printError("\(name): stopped after a failure: \(error)")
            return 1
        }
        logger.info("stopped")
        return 0
    }

    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
