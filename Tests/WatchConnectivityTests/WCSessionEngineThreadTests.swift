import Testing
import WatchPairHost
import WatchPairTransport

@testable import WatchConnectivity

@Suite("WCSession's engine thread")
struct WCSessionEngineThreadTests {
    // The engine's tasks and the link's sockets share one thread (EngineExecutor), so a frame read resumes
    // the engine, and its answer is written, without waking another thread (BENCHMARKS.md, "The
    // WatchConnectivity module's round trip"). Without the session's socket loop the link would sit on a
    // loop of NIO's shared group.
    @Test("a session over Unix sockets runs its link on the thread its engine runs on")
    func linkRunsOnTheEngineThread() async throws {
        let pair = try await LinkedPair.start(.unixSockets)
        for session in [pair.phone, pair.watch] {
            let transport = try #require(session.activeRuntime?.transport as? UnixSocketTransport)
            #expect(transport.runs(on: EngineExecutor.shared.socketLoop))
        }
        #expect(await EngineExecutor.shared.spawn { EngineExecutor.shared.isCurrent }.value)
        #expect(!EngineExecutor.shared.isCurrent)
        await pair.stop()
    }
}
