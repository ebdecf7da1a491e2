import Foundation
import InMemoryLogging
import Logging
import Synchronization
import Testing
import WatchConnection
import WatchConnectionTesting
import WatchConnectionWCSession
import WatchConnectivityTesting
import WatchPairTesting

/// How a test's two connections are linked: two `FlakySession`s, or WatchPair's real `WCSession`s
/// (the in-memory pair of the test kit). Tests that make sense over both take `LinkMode.allCases`.
enum LinkMode: String, CaseIterable, CustomStringConvertible, Sendable {
    case flaky
    case wcSessionInMemory
    var description: String { rawValue }
}

/// A phone and a watch connection, activated and reachable, on one manual clock.
@MainActor
final class TestLink {
    let phone: WatchConnection
    let watch: WatchConnection
    let clock: ManualClock
    /// The flaky sessions (flaky mode only): phone's, watch's.
    let flaky: (phone: FlakySession, watch: FlakySession)?
    let pair: WCSessionPair?
    /// What the phone's connection logged (debug and up).
    let phoneLog: InMemoryLogHandler

    init(_ mode: LinkMode, phoneConfiguration: WatchConnectionConfiguration = WatchConnectionConfiguration()) async throws {
        var handler = InMemoryLogHandler()
        handler.logLevel = .debug
        phoneLog = handler
        let phoneLogger = Logger(label: "phone") { _ in handler }
        let watchLogger = Logger(label: "watch") { _ in InMemoryLogHandler() }
        switch mode {
        case .flaky:
            let clock = ManualClock()
            let (phoneSession, watchSession) = FlakySession.pair(seed: 11, clock: clock)
            self.clock = clock
            flaky = (phoneSession, watchSession)
            pair = nil
            phone = WatchConnection(session: phoneSession, configuration: phoneConfiguration, clock: clock, logger: phoneLogger)
            watch = WatchConnection(session: watchSession, clock: clock, logger: watchLogger)
        case .wcSessionInMemory:
            let pair = try WCSessionPair(.inMemory)
            let clock = pair.clock!
            self.clock = clock
            self.pair = pair
            flaky = nil
            phone = WatchConnection(
                session: WCSessionAdapter(pair.phone), configuration: phoneConfiguration, clock: clock, logger: phoneLogger)
            // The convenience initializer over a WCSession, as an app moving from WatchConnectivitySwift writes it.
            watch = WatchConnection(session: pair.watch, clock: clock, logger: watchLogger)
        }
        try await phone.waitForConnection()
        try await watch.waitForConnection()
    }

    /// A flaky link whose watch answers `Greet` (counting runs): the link, the phone's session, the count.
    static func flakyGreeter() async throws -> (TestLink, FlakySession, Counter) {
        let link = try await TestLink(.flaky)
        let phoneSession = try #require(link.flaky).phone
        let runs = Counter()
        link.watch.registerGreeter(runs)
        return (link, phoneSession, runs)
    }

    /// Flaky mode: the peer goes out of reach; returns once the phone's connection has seen it.
    func makePeerUnreachable() async throws {
        try #require(flaky).phone.setReachable(false)
        await phone.waitForStatus { !$0.isReachable }
    }

    func stop() async {
        await pair?.shutdown()
    }
}

/// Counts handler runs (handlers run off the main actor).
final class Counter: Sendable {
    private let value = Mutex(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// What the queue file in `directory` holds now.
func persistedQueue(_ directory: URL) -> [QueuedRequest] {
    RequestQueueFile(directory: directory).load(setAsideSuffix: "test").requests
}

/// The first event of `events` that `matches`, or nil when the stream ends.
@MainActor
func first(_ events: AsyncStream<DiagnosticEvent>, _ matches: (DiagnosticEvent) -> Bool) async -> DiagnosticEvent? {
    for await event in events where matches(event) { return event }
    return nil
}

struct Greet: WatchRequest {
    typealias Response = Greeting
    let name: String
}

struct Greeting: Codable, Sendable, Equatable {
    let text: String
}

struct Unhandled: WatchRequest {
    typealias Response = Greeting
}

struct Blob: WatchRequest {
    typealias Response = Greeting
    let bytes: String
}

struct Ping: FireAndForgetRequest {
    let note: String
}

extension WatchConnection {
    /// Returns once `connectionState` yields a status that `matches`.
    func waitForStatus(_ matches: (ConnectionStatus) -> Bool) async {
        for await status in connectionState where matches(status) { return }
    }

    /// Registers a `Greet` handler that answers with the name; returns the names in arrival order.
    func registerNameRecorder() -> AsyncStream<String> {
        let (names, arrivals) = AsyncStream.makeStream(of: String.self)
        register(Greet.self) { request in
            arrivals.yield(request.name)
            return Greeting(text: request.name)
        }
        return names
    }

    /// Registers a `Greet` handler that counts its runs.
    func registerGreeter(_ counter: Counter) {
        register(Greet.self) { request in
            counter.increment()
            return Greeting(text: "Hello, \(request.name)")
        }
    }
}
