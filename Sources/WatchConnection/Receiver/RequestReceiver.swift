import Foundation
import Logging
import Synchronization

/// The receiving side of a ``WatchConnection``: the registered handlers, exactly-once execution per
/// request id, and the requests held for a handler that has not registered yet.
///
/// Each arriving request goes through the ``ResponseLedger`` first: a new id runs its handler once; a repeat
/// of a finished one is answered with the recorded response (`duplicateSuppressed`); a repeat that arrives
/// while the first run is still going (or is held) waits for that run's response. A run's response is
/// recorded (and saved to the ``ResponseLedgerFile`` when the connection persists) before anyone is
/// answered, so a restart cannot run a finished request again. A new id whose type has no handler goes
/// through ``HeldRequests``: by userInfo or context it is held (and saved to the ``HeldRequestsFile``)
/// until its handler registers; live, it is answered `handlerNotRegistered` at once. A type of its own so
/// that ``WatchConnection`` holds the sending side and the state, and this the receiving side.
final class RequestReceiver: Sendable {
    /// What the receiver keeps, behind one lock: it is driven from the session's delegate queue (live
    /// requests, ``receiveLive(_:reply:)``) and from the main actor (registrations, durable requests).
    private struct State {
        /// Registered handlers by request type.
        var handlers: [String: RequestHandler] = [:]
        var ledger: ResponseLedger
        var held: HeldRequests
        /// Routes of repeats that arrived while their request's first run was still going (or held).
        var repeatsAwaitingRun: [UUID: [ResponseRoute]] = [:]
        /// Handler runs going on (or about to start).
        var runningCount = 0
        /// The connection is gone or closed: live messages are no longer taken.
        var stopped = false
    }

    /// What to do, outside the lock, for a request that arrived.
    private enum Arrival {
        case replay(String)
        case awaitRun
        case nothing
        case run(RequestHandler)
        case refuse
        case held
        case repeatOfHeld
    }

    private let state: Mutex<State>
    private let ledgerFile: ResponseLedgerFile?
    private let heldFile: HeldRequestsFile?
    private let session: any WCSessionProviding
    private let tasks: TaskSet
    private let logger: Logger
    /// Now on the wall timeline (the ledger's expiry survives restarts).
    private let now: @Sendable () -> Duration
    /// Reports a diagnostic event through the connection (in order with its session events).
    private let emit: @Sendable (DiagnosticEvent) -> Void

    init(
        ledger: ResponseLedger, ledgerFile: ResponseLedgerFile?, held: HeldRequests, heldFile: HeldRequestsFile?,
        session: any WCSessionProviding, tasks: TaskSet, logger: Logger, now: @escaping @Sendable () -> Duration,
        emit: @escaping @Sendable (DiagnosticEvent) -> Void
    ) {
        var ledger = ledger
        // Held requests (restored from disk) count as running: a repeat waits for their run.
        for request in held.requests { _ = ledger.event(.arrived(id: request.id, now: now())) }
        state = Mutex(State(ledger: ledger, held: held))
        self.ledgerFile = ledgerFile
        self.heldFile = heldFile
        self.session = session
        self.tasks = tasks
        self.logger = logger
        self.now = now
        self.emit = emit
    }

    /// The receiver whose recorded responses and held requests are persisted in
    /// `configuration.storageDirectory` (read now; in memory without one), and the files that could not
    /// be read and were set aside.
    static func load(
        _ configuration: WatchConnectionConfiguration, session: any WCSessionProviding, tasks: TaskSet, time: ConnectionTime,
        logger: Logger, emit: @escaping @Sendable (DiagnosticEvent) -> Void
    ) -> (RequestReceiver, [StorageSetAside]) {
        let ledgerFile = configuration.storageDirectory.map(ResponseLedgerFile.init(directory:))
        let records = ledgerFile?.load(setAsideSuffix: configuration.setAsideSuffix)
        let heldFile = configuration.storageDirectory.map(HeldRequestsFile.init(directory:))
        let held = heldFile?.load(setAsideSuffix: configuration.setAsideSuffix)
        // A request whose response was recorded just before a kill needs no run: a repeat is answered
        // from the record.
        let recorded = Set((records?.records ?? []).map(\.id))
        let waiting = (held?.requests ?? []).filter { !recorded.contains($0.id) }
        let receiver = RequestReceiver(
            ledger: ResponseLedger(
                capacity: configuration.recordedResponseCapacity, window: configuration.queueExpiry, records: records?.records ?? []),
            ledgerFile: ledgerFile,
            held: HeldRequests(capacity: configuration.heldRequestCapacity, expiry: configuration.queueExpiry, requests: waiting),
            heldFile: heldFile, session: session, tasks: tasks, logger: logger, now: { time.wallNow }, emit: emit)
        return (receiver, [records?.setAside, held?.setAside].compactMap { $0 })
    }

    /// The number of requests held for a handler.
    var heldCount: Int { state.withLock { $0.held.requests.count } }
    /// The number of requests whose handler runs now (or is about to).
    var runningCount: Int { state.withLock { $0.runningCount } }

    /// Takes no more live messages (the connection was closed or released).
    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// Makes `handler` the handler of `type` (nil: removes it); a handler runs the requests held for
    /// its type one after the other, oldest first.
    func setHandler(_ handler: RequestHandler?, for type: String) {
        let action: HeldRequests.Action? = state.withLock { state in
            state.handlers[type] = handler
            guard handler != nil else { return nil }
            let action = state.held.event(.registered(type: type, now: now()))
            persist(action, state)
            state.runningCount += action.release.count
            return action
        }
        guard let handler, let action else { return }
        answerEnded(action)
        guard !action.release.isEmpty else { return }
        let started = tasks.startHere(immediately: false) {
            for request in action.release {
                defer { self.state.withLock { $0.runningCount -= 1 } }
                // Parsed when it arrived; only a file edited by hand could fail here.
                guard let header = try? WireEnvelope.header(of: request.envelope) else { continue }
                let response = await handler(request.envelope, header)
                self.completeRun(request.id, response: response, route: request.route)
            }
        }
        if !started { state.withLock { $0.runningCount -= action.release.count } }
    }

    /// A live message, taken where the session reports it (its delegate queue) rather than on the main
    /// actor: a request whose type has a handler runs it from here, starting on this thread
    /// (``TaskSet/startHere(immediately:_:)``), and a ping is answered. false: not one of those (no layer
    /// envelope, unreadable, a response, a pong, a type with no handler yet, or the connection is
    /// stopped): the connection's event loop takes it, in order, as before. So a request that launched the
    /// app still finds the handler the app registers right after creating its connection.
    func receiveLive(_ message: [String: String], reply: (@Sendable ([String: String]) -> Void)?) -> Bool {
        guard let envelope = message[WireEnvelope.key], let header = try? WireEnvelope.header(of: envelope) else { return false }
        let taken = state.withLock { state in
            !state.stopped && (header.kind != .request || state.handlers[header.type ?? ""] != nil)
        }
        guard taken else { return false }
        let route = reply.map(ResponseRoute.reply) ?? .none
        switch header.kind {
        case .request:
            receiveRequest(envelope, header: header, route: route, durable: false, immediately: true)
        case .ping:
            answerPing(header.id, to: route)
        case .response, .pong:
            return false
        }
        return true
    }

    /// A request arrived (its header already read), live or (`durable`) by userInfo or context: runs it
    /// at most once, answering on `route`. `immediately`: its handler starts on this thread.
    func receiveRequest(_ envelope: String, header: WireEnvelope.Header, route: ResponseRoute, durable: Bool, immediately: Bool = false) {
        let type = header.type ?? ""
        // A request by userInfo or context is answered by userInfo only when its sender waits for it.
        let route: ResponseRoute = if case .userInfo = route, header.reply != true { .none } else { route }
        let arrivedAt = now()
        let (arrival, action) = state.withLock { state -> (Arrival, HeldRequests.Action?) in
            switch state.ledger.event(.arrived(id: header.id, now: arrivedAt)) {
            case .replay(let response):
                return (.replay(response), nil)
            case .awaitRun:
                state.repeatsAwaitingRun[header.id, default: []].append(route)
                return (.awaitRun, nil)
            case .none:
                return (.nothing, nil)
            case .run:
                let request = HeldRequests.Request(
                    id: header.id, requestType: type, envelope: envelope, answersByUserInfo: route.isUserInfo, arrivedAt: arrivedAt)
                let handler = state.handlers[type]
                let action = state.held.event(.arrived(request, durable: durable, handled: handler != nil))
                // On disk before anything reports it held.
                persist(action, state)
                switch action.disposition {
                case .run:
                    guard let handler else { return (.nothing, action) }
                    state.runningCount += 1
                    return (.run(handler), action)
                case .refuse:
                    return (.refuse, action)
                case .held:
                    return (.held, action)
                case .repeatOfHeld:
                    state.repeatsAwaitingRun[header.id, default: []].append(route)
                    return (.repeatOfHeld, action)
                }
            }
        }
        if let action { answerEnded(action) }
        switch arrival {
        case .replay(let response):
            emit(.duplicateSuppressed(type: type, id: header.id))
            respond(response, to: route)
        case .awaitRun, .repeatOfHeld:
            emit(.duplicateSuppressed(type: type, id: header.id))
        case .nothing:
            break
        case .run(let handler):
            run(handler, envelope, header: header, route: route, immediately: immediately)
        case .refuse:
            completeRun(header.id, response: Self.notRegistered(header.id, type), route: route)
        case .held:
            emit(.requestHeld(type: type, id: header.id))
        }
    }

    /// Runs `handler` for a request in a task of the connection, then records and answers its response.
    private func run(_ handler: @escaping RequestHandler, _ envelope: String, header: WireEnvelope.Header, route: ResponseRoute, immediately: Bool) {
        let started = tasks.startHere(immediately: immediately) {
            let response = await handler(envelope, header)
            self.completeRun(header.id, response: response, route: route)
            self.state.withLock { $0.runningCount -= 1 }
        }
        if !started { state.withLock { $0.runningCount -= 1 } }
    }

    /// Persists the held requests when they changed (under the lock, so saves keep their order).
    private func persist(_ action: HeldRequests.Action, _ state: borrowing State) {
        guard action.changed else { return }
        do {
            try heldFile?.save(state.held.persisted)
        } catch {
            // They stay held in memory; only a crash before the next successful save loses them.
            logger.warning("held requests could not be saved", metadata: ["error": "\(error)"])
        }
    }

    /// Answers the dropped and expired requests of `action` (outside the lock).
    private func answerEnded(_ action: HeldRequests.Action) {
        let ended = action.dropped.map { ($0, DiagnosticEvent.requestDropped(type: $0.requestType, id: $0.id)) }
            + action.expired.map { ($0, DiagnosticEvent.requestExpired(type: $0.requestType, id: $0.id)) }
        for (request, event) in ended {
            emit(event)
            completeRun(request.id, response: Self.notRegistered(request.id, request.requestType), route: request.route)
        }
    }

    /// The response envelope "no handler for `type`".
    private static func notRegistered(_ id: UUID, _ type: String) -> String {
        var failed = WireEnvelope.Header(v: WireEnvelope.version, kind: .response, id: id, type: type)
        failed.error = .handlerNotRegistered(type)
        return WireEnvelope.encode(failed)
    }

    /// Records a run's response (on disk first, when persisted), then answers the request and every
    /// repeat that waited for it.
    private func completeRun(_ id: UUID, response: String, route: ResponseRoute) {
        let finishedAt = now()
        let (repeats, action) = state.withLock { state -> ([ResponseRoute], HeldRequests.Action) in
            _ = state.ledger.event(.finished(id: id, response: response, now: finishedAt))
            do {
                try ledgerFile?.save(ResponseLedger.Record(id: id, response: response, at: finishedAt), of: state.ledger)
            } catch {
                // Answering still beats failing the sender; only a crash before the next save could repeat it.
                logger.warning("recorded responses could not be saved", metadata: ["error": "\(error)"])
            }
            // Recorded: a durable request leaves the held file only now.
            let action = state.held.event(.finished(id: id))
            persist(action, state)
            return (state.repeatsAwaitingRun.removeValue(forKey: id) ?? [], action)
        }
        answerEnded(action)
        respond(response, to: route)
        for repeatRoute in repeats { respond(response, to: repeatRoute) }
    }

    /// Answers the probe `id` (`attemptRecovery()`'s ping) with a pong.
    func answerPing(_ id: UUID, to route: ResponseRoute) {
        respond(WireEnvelope.encode(WireEnvelope.Header(v: WireEnvelope.version, kind: .pong, id: id)), to: route)
    }

    /// Sends `response` the way `route` says.
    func respond(_ response: String, to route: ResponseRoute) {
        switch route {
        case .reply(let reply):
            reply([WireEnvelope.key: response])
        case .userInfo:
            do {
                try session.transferUserInfo([WireEnvelope.key: response])
            } catch {
                logger.warning("response could not be queued", metadata: ["error": "\(error)"])
            }
        case .none:
            break
        }
    }
}

extension ResponseRoute {
    /// Whether the response goes back by userInfo.
    var isUserInfo: Bool {
        if case .userInfo = self { true } else { false }
    }
}

extension HeldRequests.Request {
    /// Where its response goes.
    var route: ResponseRoute { answersByUserInfo ? .userInfo : .none }
}

extension RequestReceiver {
    /// The handler of `type` that decodes a request's body, runs the app's `run` on it, and encodes its
    /// response or the failure (`decodingFailed`, `handlerError`) as a response envelope.
    static func handler<Request: Sendable, Response: Encodable & Sendable>(
        of type: String,
        decode: @escaping @Sendable (String) throws -> Request,
        run: @escaping @Sendable (Request) async throws -> Response
    ) -> RequestHandler {
        { envelope, header in
            let responseHeader = WireEnvelope.Header(v: WireEnvelope.version, kind: .response, id: header.id, type: type)
            do {
                let request = try decode(envelope)
                let response = try await run(request)
                return try WireEnvelope.encode(responseHeader, body: response)
            } catch let error as WatchConnectionError {
                var failed = responseHeader
                failed.error = WireError(code: "decodingFailed", message: error.description, requestType: type)
                return WireEnvelope.encode(failed)
            } catch {
                var failed = responseHeader
                failed.error = WireError(code: "handlerError", message: String(describing: error), requestType: type)
                return WireEnvelope.encode(failed)
            }
        }
    }
}
