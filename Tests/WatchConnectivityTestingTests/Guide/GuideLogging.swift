import InMemoryLogging
import Logging
import Testing
import WatchConnectivity
import WatchConnectivityTesting

// docs/Testing.md, "Logging": quoted by the guide (TestingGuideDocTests checks it).

@Suite("docs/Testing.md: logging", .timeLimit(.minutes(3)))
struct GuideLogging {
    @Test("everything both sessions log, shown when an expectation fails")
    func logsShownOnFailure() async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "pair") { _ in logs }
        logger.logLevel = .debug
        let pair = try WCSessionPair(.inMemory, logger: logger)
        try await pair.activate()
        // The comment is built only if the expectation fails.
        #expect(pair.phone.isReachable, "\(logs.entries.map { "\($0.level) \($0.metadata["role"] ?? "") \($0.message)" })")
        #expect(logs.entries.contains { $0.message == "WCSession activated" })
        await pair.shutdown()
    }
}
