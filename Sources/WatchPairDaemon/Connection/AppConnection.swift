import Foundation
import Logging
import ServiceLifecycle
import KeyedSync
import WatchConnection
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// The daemon's app face on the reliability layer (docs/WatchConnection.md): one `WatchConnection` over
/// ``EngineSession``, through which `request` sends and whose handlers the `serve` clients are.
///
/// A `Service` of the host (its ``HostFace``): `run()` starts the connection with the engine, runs the
/// adapter and the loops that carry the layer's events and suggestions as child tasks, and at graceful
/// shutdown (after the control server stopped, before the engine and the store do) closes the
/// connection, so nothing of the layer runs once the host's `run()` returns. Control requests wait for
/// the connection to exist (``connection()``). Its queue, recorded responses and held requests live in
/// the state directory (`watchconnection-queue.json`, `watchconnection-responses.json`,
/// `watchconnection-held.json`), so they survive kill -9.
/// One `serve` client per request type: the newest replaces the older, and a handler whose client
/// went away is removed: then live requests of its type get `handlerNotRegistered`, and those that
/// come by userInfo or context are held until a `serve` client for the type attaches again.
@MainActor
final class AppConnection {
    /// The layer's session: the host's channels.
    let session: EngineSession
    private let router: MessageRouter
    private let clock: any Clock<Duration>
    private let storageDirectory: URL
    /// The `layer.*` settings.
    private let layer: LayerConfiguration
    private let logger: Logger
    /// The connection, once `run()` made it.
    private let started = OnceValue<WatchConnection>()
    /// The app's keyed sync (docs/KeyedSync.md) over the connection, made with it.
    private(set) var keyedSync: KeyedSync?
    /// The control connection serving each request type.
    private var servers: [String: UInt64] = [:]
    /// Fires after a `serve` client started or stopped handling a type (`wait handler TYPE`).
    nonisolated let servingChanged = AsyncSignal()
    /// Requests shown to a client that answers them itself, by token.
    private var awaiting: [UInt64: (clientId: UInt64, slot: OnceValue<Result<JSONBody, AppAnswer>>)] = [:]
    private var nextToken: UInt64 = 0
    /// The newest recovery suggestions made (at most `suggestionsKept`), oldest first.
    private(set) var recentSuggestions: [RecoverySuggestion] = []
    private let channels: AppChannels

    /// How many recent recovery suggestions `health` shows.
    static let suggestionsKept = 16

    /// How long a live layer message waits for the layer's answer (the sender's timeout is shorter).
    static let answerTimeout: Duration = .seconds(300)

    /// The face of the host in `context`, storing the layer's files in `storageDirectory`, with the
    /// `layer.*` settings.
    nonisolated init(context: HostContext, router: MessageRouter, storageDirectory: String, layer: LayerConfiguration = LayerConfiguration(), logger: Logger) {
        channels = context.channels
        session = EngineSession(channels: channels)
        // Before the engine runs: the layer's items go to its own queue from the first one on.
        channels.routeInbox(LayerInbox.route)
        self.router = router
        clock = context.clock
        self.storageDirectory = URL(fileURLWithPath: storageDirectory, isDirectory: true)
        self.layer = layer
        self.logger = logger
    }

    /// The connection; waits until `run()` made it (at once, once the host runs).
    func connection() async -> WatchConnection {
        await started.value
    }

    /// Makes the connection over the engine adapter. Its own log lines would repeat its events, which
    /// reach the journal with their MESSAGE_IDs as the daemon's diagnostic events, so it logs only
    /// critical ones.
    private func makeConnection() -> WatchConnection {
        var quiet = logger
        quiet.logLevel = .critical
        let configuration = WatchConnectionConfiguration(
            storageDirectory: storageDirectory, layer: layer, limits: channels.limits)
        let connection = WatchConnection(session: session, configuration: configuration, clock: clock, logger: quiet)
        session.setHandled { await connection.waitUntilSessionEventsHandled() }
        // In the same turn as the connection, so its handlers exist before the first session event.
        keyedSync = KeyedSync(
            connection: connection, side: channels.role == .phone ? .phone : .watch,
            configuration: KeyedSyncConfiguration(storageDirectory: storageDirectory), clock: clock, logger: quiet)
        started.complete(connection)
        return connection
    }

    /// Keeps the newest suggestions until the connection closes.
    private func collect(_ suggestions: AsyncStream<RecoverySuggestion>) async {
        for await suggestion in suggestions {
            recentSuggestions = Array((recentSuggestions + [suggestion]).suffix(Self.suggestionsKept))
        }
    }

    /// How a `serve` client answers its requests.
    enum Answering: Sendable {
        /// The daemon answers each request: `error` (an app-level fault) or `reply` (`{}` when nil),
        /// after `delay`.
        case automatic(reply: JSONBody?, error: WCErrorCode?, delay: Duration?)
        /// The client answers each request with `respond` and the token it was shown.
        case byClient
    }

    /// Makes the client `clientId` the handler of `requestType`: each request is shown to it with
    /// `show` (its token when the client answers; false: the client is gone), then answered.
    func serve(
        _ requestType: String, clientId: UInt64, answering: Answering,
        show: @escaping @Sendable (_ token: UInt64?, JSONBody) async -> Bool
    ) async {
        let connection = await connection()
        servers[requestType] = clientId
        // Fired once the handler is registered (below), so a request sent after a wait finds it.
        defer { servingChanged.fire() }
        let clock = self.clock
        connection.register(requestType: requestType) { [weak self] body in
            switch answering {
            case .automatic(let reply, let error, let delay):
                guard await show(nil, body) else { throw AppAnswer.gone(requestType) }
                if let delay { try await Waiting.sleep(on: clock, for: delay) }
                if let error { throw AppAnswer.error(error) }
                return reply ?? .object([:])
            case .byClient:
                guard let awaited = await self?.awaitAnswer(clientId: clientId) else { throw AppAnswer.gone(requestType) }
                let (token, slot) = awaited
                guard await show(token, body) else {
                    _ = slot.complete(.failure(.gone(requestType)))
                    throw AppAnswer.gone(requestType)
                }
                let answer = await slot.value(
                    within: Self.answerTimeout, on: clock, late: .failure(.unanswered(Self.answerTimeout)),
                    stopping: .failure(.gone(requestType)))
                await self?.forget(token)
                return try answer.get()
            }
        }
    }

    /// Whether a `serve` client handles `requestType`.
    func isServing(_ requestType: String) -> Bool {
        servers[requestType] != nil
    }

    /// A token and the slot its `respond` completes.
    private func awaitAnswer(clientId: UInt64) -> (UInt64, OnceValue<Result<JSONBody, AppAnswer>>)? {
        // Bound: as many requests wait for their client's answer as the layer runs handlers at once;
        // past `maximumAwaiting` the request fails (the sender sees handlerError).
        guard awaiting.count < Self.maximumAwaiting else { return nil }
        nextToken += 1
        let slot = OnceValue<Result<JSONBody, AppAnswer>>()
        awaiting[nextToken] = (clientId, slot)
        return (nextToken, slot)
    }

    private func forget(_ token: UInt64) {
        awaiting[token] = nil
    }

    /// The most requests waiting for their `serve` client's answer at once.
    static let maximumAwaiting = 1024

    /// A `serve` client's answer to the request shown with `token`: false when no request waits for it.
    func respond(token: UInt64, _ answer: Result<JSONBody, AppAnswer>) -> Bool {
        guard let waiting = awaiting.removeValue(forKey: token) else { return false }
        return waiting.slot.complete(answer)
    }

    /// The client `clientId` went away: the types it served have no handler any more, and the
    /// requests waiting for its answer fail.
    func stopServing(clientId: UInt64) async {
        let served = servers.filter { $0.value == clientId }.map(\.key)
        // Only a client that served a type waits for the connection (it existed when it did).
        if !served.isEmpty {
            let connection = await connection()
            for type in served where servers[type] == clientId {
                servers[type] = nil
                connection.unregister(requestType: type)
            }
            servingChanged.fire()
        }
        for (token, waiting) in awaiting where waiting.clientId == clientId {
            awaiting[token] = nil
            _ = waiting.slot.complete(.failure(.gone("a request type")))
        }
    }

    /// Sends a request through the layer; its response body, or the `WCFailure` the control socket reports.
    func send(
        _ requestType: String, body: JSONBody, strategy: DeliveryStrategy, mode: DeliveryMode, retry: RetryPolicy
    ) async -> Result<JSONBody, WCFailure> {
        let connection = await connection()
        do {
            return .success(
                try await connection.send(requestType: requestType, body: body, strategy: strategy, delivery: mode, retryPolicy: retry))
        } catch {
            let failure = WatchConnectionError(sessionError: error)
            return .failure(WCFailure(WCErrorCode(rawValue: failure.code) ?? .genericError, failure.description))
        }
    }
}

/// How a `serve` client's handler ends without a reply; the text reaches the sender in `handlerError`.
enum AppAnswer: Error, CustomStringConvertible {
    /// The app answered with this `WCError` code (`serve --error`, `respond` with `errorCode`).
    case error(WCErrorCode)
    /// The client serving the type went away before answering.
    case gone(String)
    /// The client did not answer within this time.
    case unanswered(Duration)

    var description: String {
        switch self {
        case .error(let code): "the app answered with error \(code.rawValue)"
        case .gone(let type): "the app's handler for '\(type)' went away"
        case .unanswered(let timeout): "the app did not answer within \(timeout)"
        }
    }
}

extension AppConnection: Service {
    /// Runs the layer for the host's run: makes the connection, routes the layer's live messages to it,
    /// runs the adapter and forwards the layer's events (as the daemon's diagnostic events) and
    /// suggestions, until graceful shutdown or cancellation; then closes the connection and returns
    /// once all of it has ended.
    nonisolated func run() async throws {
        let connection = await makeConnection()
        let (events, suggestions) = await (connection.diagnosticRecords, connection.recoverySuggestions)
        let syncEvents = await keyedSync?.eventBatches
        let (session, clock, router) = (self.session, self.clock, self.router)
        let (diagnostics, role) = (channels.diagnostics, channels.role)
        await router.setLayer { message in
            guard case .dictionary(let dictionary) = message.body else {
                return .failure(WCFailure(.deliveryFailed, "a layer message must be a dictionary"))
            }
            return await session.message(dictionary, wantsReply: message.wantsReply, answerTimeout: Self.answerTimeout, clock: clock)
        }
        await withDiscardingTaskGroup { group in
            group.addTask { await session.run() }
            // Answers the control clients owe expire on one sleeper, for as long as the daemon runs.
            group.addTask { await router.expireAnswers() }
            // Both end when the connection closes (its streams finish).
            group.addTask {
                for await record in events {
                    if let diagnostic = LayerEvents.diagnostic(record, role: role) { diagnostics.emit(diagnostic) }
                }
            }
            group.addTask { await self.collect(suggestions) }
            group.addTask {
                // One emit per change of the ledger: a snapshot's keys reach the journal as one batch.
                for await events in (syncEvents ?? AsyncStream { $0.finish() }) {
                    diagnostics.emit(contentsOf: events.map { SyncEvents.diagnostic($0, role: role) })
                }
            }
            // Throws only when cancelled: then stop at once, the same way.
            try? await gracefulShutdown()
            // Live layer messages get a definite "not handled" from now on, then the connection ends
            // its sends (queued ones stay on disk) and its handler runs, then the adapter stops.
            await router.setLayer(nil)
            await keyedSync?.close()
            await connection.close()
            group.cancelAll()
        }
    }
}
