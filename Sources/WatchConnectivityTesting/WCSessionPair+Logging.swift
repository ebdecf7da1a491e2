import Foundation
import Logging

extension WCSessionPair {
    /// The environment variable that sets ``defaultLogger()``'s level: `trace`, `debug`, `info`,
    /// `notice`, `warning` (the default), `error` or `critical`.
    public static let logLevelVariable = "WATCHPAIR_TEST_LOG"

    /// The logger a pair uses unless given one: label `WCSessionPair`, through the process's log handler
    /// (standard output unless the test process bootstrapped another), at `warning` unless
    /// `WATCHPAIR_TEST_LOG` names another level. Rerun a failing test with `WATCHPAIR_TEST_LOG=debug` to
    /// see everything both sessions did; or give the pair a `Logger` of your own (an `InMemoryLogHandler`
    /// the test prints when it fails).
    public static func defaultLogger() -> Logger {
        var logger = Logger(label: "WCSessionPair")
        logger.logLevel = defaultLogLevel(environment: ProcessInfo.processInfo.environment)
        return logger
    }

    /// The level `WATCHPAIR_TEST_LOG` names in `environment`; `warning` when unset or not a level.
    public static func defaultLogLevel(environment: [String: String]) -> Logger.Level {
        environment[logLevelVariable].flatMap(Logger.Level.init(rawValue:)) ?? .warning
    }
}
