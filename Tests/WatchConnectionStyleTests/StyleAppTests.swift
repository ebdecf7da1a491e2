import Foundation
import Synchronization
import Testing
import WatchConnection
import WatchConnectionTesting

@MainActor
@Suite("WatchConnectivitySwift-style app", .timeLimit(.minutes(3)))
struct StyleAppTests {
    /// A connection answering its own requests through a loopback FlakySession.
    func connection(_ flakySession: FlakySession) -> WatchConnection {
        let connection = WatchConnection(session: flakySession)
        connection.register(FetchRecipe.self) { request in
            Recipe(id: request.id, title: "Recipe \(request.id)")
        }
        return connection
    }

    @Test("the status view model sees the connection")
    func statusViewModel() async {
        let connection = connection(FlakySession())
        let model = ConnectionStatusViewModel(connection: connection)
        await model.observe()
        #expect(model.statusText == "Connected" && model.canSend)
    }

    @Test("with failureProbability = 0.3 the patient policy still fetches every recipe, each handled once")
    func flaky() async {
        let flakySession = FlakySession(seed: 2024)
        flakySession.failureProbability = 0.3  // 30% failure rate
        let runs = Mutex(0)
        let connection = WatchConnection(session: flakySession)
        connection.register(FetchRecipe.self) { request in
            runs.withLock { $0 += 1 }
            return Recipe(id: request.id, title: "Recipe \(request.id)")
        }
        let loader = RecipeLoader(connection: connection)
        for id in 1...10 {
            let recipe = await loader.load("\(id)")
            #expect(recipe == Recipe(id: "\(id)", title: "Recipe \(id)"), "\(loader.message)")
        }
        #expect(runs.withLock { $0 } == 10)
        #expect(flakySession.history.contains(.fail(code: 7014)))
    }

    @Test("a timeout is caught as WatchConnectionError.timeout")
    func timeout() async {
        let flakySession = FlakySession()
        flakySession.latency = .seconds(60)
        let connection = WatchConnection(session: flakySession)
        do {
            _ = try await connection.send(FetchRecipe(id: "1"), retryPolicy: RetryPolicy(maxAttempts: 1, timeout: .milliseconds(50)))
            Issue.record("no timeout")
        } catch WatchConnectionError.timeout {
            // expected
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("a log event is fire-and-forget")
    func logEvent() async {
        let flakySession = FlakySession()
        let connection = WatchConnection(session: flakySession)
        let (names, received) = AsyncStream.makeStream(of: String.self)
        connection.register(LogEvent.self) { event in
            received.yield(event.name)
            return VoidResponse()
        }
        await RecipeLoader(connection: connection).logScreenView()
        var iterator = names.makeAsyncIterator()
        #expect(await iterator.next() == "screen_view")
    }

    @Test("the health monitor shows a suggestion and recovers")
    func healthMonitor() async {
        let flakySession = FlakySession()
        flakySession.script(Array(repeating: .fail(code: 7014), count: 10))
        let connection = connection(flakySession)
        let monitor = HealthMonitor(connection: connection)
        for _ in 0..<10 {
            _ = try? await connection.send(FetchRecipe(id: "x"), strategy: .messageOnly, retryPolicy: .none)
        }
        #expect(monitor.needsAttention)
        await monitor.watchSuggestions(limit: 1)
        #expect(monitor.alerts.first?.title == RecoverySuggestion.restartWatch.title)
        await monitor.recoverIfNeeded()
        #expect(!monitor.needsAttention)
    }
}
