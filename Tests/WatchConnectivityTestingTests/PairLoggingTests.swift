import InMemoryLogging
import Logging
import Testing
import WatchConnectivity
import WatchConnectivityTesting

@Suite("WCSessionPair's logging", .timeLimit(.minutes(3)))
struct PairLoggingTests {
    @Test("WATCHPAIR_TEST_LOG sets the default level; unset or unknown, warnings and above", arguments: [
        ([:], Logger.Level.warning), (["WATCHPAIR_TEST_LOG": "debug"], .debug), (["WATCHPAIR_TEST_LOG": "trace"], .trace),
        (["WATCHPAIR_TEST_LOG": "error"], .error), (["WATCHPAIR_TEST_LOG": "loud"], .warning), (["OTHER": "debug"], .warning),
    ])
    func defaultLevel(environment: [String: String], level: Logger.Level) {
        #expect(WCSessionPair.defaultLogLevel(environment: environment) == level)
    }

    @Test("a pair at the default level says nothing while things go well; at debug it tells each side's story",
          arguments: [Logger.Level.warning, .debug])
    func quietByDefault(level: Logger.Level) async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "pair") { _ in logs }
        logger.logLevel = level
        let pair = try WCSessionPair(.inMemory, logger: logger)
        let (_, watch) = try await pair.activate()
        pair.phone.transferUserInfo(["n": 1])
        _ = try await watch.first(\.userInfo)
        await pair.shutdown()
        if level == .warning {
            #expect(logs.entries.isEmpty, "\(logs.entries.map(\.message))")
        } else {
            let roles = Set(logs.entries.compactMap { $0.metadata["role"]?.description })
            #expect(roles == ["phone", "watch"])
        }
    }
}
