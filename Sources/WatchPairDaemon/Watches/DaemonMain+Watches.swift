import Logging
import Systemd
import WatchPairHost
import WatchPairWire

extension DaemonMain {
    /// `phoned` with several watches (docs/Watches.md): runs the daemon bound to the active watch; when a
    /// switch closes it, the daemon of the new active watch (phoned re-activates at once, as Apple's sample
    /// app does in `sessionDidDeactivate`). Each binds its watch's link socket itself (systemd's
    /// `phoned.socket` is not the watches' link). Returns the exit status.
    static func runWithWatches(configuration: DaemonConfiguration, logger: Logger) async -> Int32 {
        let name = configuration.daemonName
        let watches: PhoneWatches
        do {
            watches = try PhoneWatches(configuration: configuration, logger: logger)
        } catch {
            printError(error.line(daemon: name))
            return ConfigurationError.exitStatus
        }
        while let watch = watches.activate() {
            logger.info("bound to watch \(watch)", metadata: ["watch": "\(watch)"])
            let environment = DaemonEnvironment(listenFileDescriptors: ListenFileDescriptors([]))
            let bound = configuration.forWatch(watch)
            bound.makeLinkDirectory()
            let daemon: Daemon
            do {
                daemon = try await buildDaemon(configuration: bound, logger: logger, environment: environment, watches: watches)
            } catch {
                printError("\(name): \(error.message)")
                return error.exitStatus
            }
            watches.attach(daemon)
            do {
                // The drain is a child beside the daemon's run, so it ends with it (a SIGTERM, a failure).
                try await withThrowingTaskGroup(of: Bool.self) { group in
                    group.addTask {
                        try await daemon.run()
                        return true
                    }
                    group.addTask {
                        await watches.drain(daemon)
                        return false
                    }
                    while let ran = try await group.next(), !ran {}
                    group.cancelAll()
                }
            } catch {
                _ = watches.detach()
                printError("\(name): stopped after a failure: \(error)")
                return 1
            }
            guard watches.detach() else { break }
        }
        logger.info("stopped")
        return 0
    }
}
