// docs/WatchConnectivity.md, "Logging": the blocks quoted there, compiled with the tests (DocPagesTests checks
// that the page quotes this file). Nothing here runs: tests never bootstrap logging, and neither builds a
// connection over `WCSession.default` (the app's session, configured from the environment).
import Logging
import WatchConnection
import WatchConnectionWCSession
import WatchConnectivity

/// The app's logging: warnings and above from the session, `info` and above from everything else.
func bootstrapLogging() {
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = label == "WatchConnectivity" ? .warning : .info
        return handler
    }
}

/// A connection that logs its failures and losses only.
@MainActor
func quietConnection() -> WatchConnection {
    var logger = Logger(label: "WatchConnection")
    logger.logLevel = .warning
    return WatchConnection(session: WCSession.default, logger: logger)
}
