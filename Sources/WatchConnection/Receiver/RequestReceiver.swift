import Foundation
import Logging

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
@MainActor
final class RequestReceiver {
    /// Reports a diagnostic event through the connection (set by it once it is initialised).
    var emit: (DiagnosticEvent) -> Void = { _ in }

    /// Registered handlers by request type.
    private var handlers: [String: RequestHandler] = [:]
    private var ledger: ResponseLedger
    private let ledgerFile: ResponseLedgerFile?
    private var held: HeldRequests
    private let heldFile: HeldRequestsFile?
    /// Routes of repeats that arrived while their request's first run was still going (or held).
    private var repeatsAwaitingRun: [UUID: [ResponseRoute]] = [:]
    private let session: any WCSessionProviding
    private let tasks: TaskSet
    private let logger: Logger
    /// Now on the wall timeline (the ledger's expiry survives restarts).
    private let now: () -> Duration

    init(
        ledger: ResponseLedger, ledgerFile: ResponseLedgerFile?, held: HeldRequests, heldFile: HeldRequestsFile?,
        session: any WCSessionProviding, tasks: TaskSet, logger: Logger, now: @escaping () -> Duration
    ) {
        self.ledger = ledger
        self.ledgerFile = ledgerFile
        self.held = held
        self.heldFile = heldFile
        self.session = session
        self.tasks = tasks
        self.logger = logger
        self.now = now
        // Held requests (restored from disk) count as running: a repeat waits for their run.
        for request in held.requests { _ = self.ledger.event(.arrived(id: request.id, now: now())) }
    }

    /// The receiver whose recorded responses and held requests are persisted in
    /// `configuration.storageDirectory` (read now; in memory without one), and the files that could not
    /// be read and were set aside.
    static func load(
        _ configuration: WatchConnectionConfiguration, session: any WCSessionProviding, tasks: TaskSet, time: ConnectionTime,
        logger: Logger
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
            heldFile: heldFile, session: session, tasks: tasks, logger: logger, now: { time.wallNow })
        return (receiver, [records?.setAside, held?.setAside].compactMap { $0 })
    }

    /// The number of requests held for a handler.
    var heldCount: Int { held.requests.count }
    /// The number of requests whose handler runs now (or is about to).
    private(set) var runningCount = 0

    /// Makes `handler` the handler of `type` (nil: removes it); a handler runs the requests held for
    /// its type one after the other, oldest first.
    func setHandler(_ handler: RequestHandler?, for type: String) {
        handlers[type] = handler
        guard let handler else { return }
        let action = held.event(.registered(type: type, now: now()))
        apply(action)
        guard !action.release.isEmpty else { return }
        runningCount += action.release.count
        let started = tasks.start {
            for request in action.release {
                defer { self.runningCount -= 1 }
                // Parsed when it arrived; only a file edited by hand could fail here.
                guard let header = try? WireEnvelope.header(of: request.envelope) else { continue }
                let response = await handler(request.envelope, header)
                self.completeRun(request.id, response: response, route: request.route)
            }
        }
        if started == nil { runningCount -= action.release.count }
    }

    /// A request arrived (its header already read), live or (`durable`) by userInfo or context: runs it
    /// at most once, answering on `route`.
    func receiveRequest(_ envelope: String, header: WireEnvelope.Header, route: ResponseRoute, durable: Bool) {
        let type = header.type ?? ""
        // A request by userInfo or context is answered by userInfo only when its sender waits for it.
        let route: ResponseRoute = if case .userInfo = route, header.reply != true { .none } else { route }
        switch ledger.event(.arrived(id: header.id, now: now())) {
        case .replay(let response):
            emit(.duplicateSuppressed(type: type, id: header.id))
            respond(response, to: route)
        case .awaitRun:
            emit(.duplicateSuppressed(type: type, id: header.id))
            repeatsAwaitingRun[header.id, default: []].append(route)
        case .none:
            break
        case .run:
            let request = HeldRequests.Request(
                id: header.id, requestType: type, envelope: envelope, answersByUserInfo: route.isUserInfo, arrivedAt: now())
            let action = held.event(.arrived(request, durable: durable, handled: handlers[type] != nil))
            // On disk before anything reports it held.
            apply(action)
            switch action.disposition {
            case .run:
                if let handler = handlers[type] { run(handler, envelope, header: header, route: route) }
            case .refuse:
                completeRun(header.id, response: Self.notRegistered(header.id, type), route: route)
            case .held:
                emit(.requestHeld(type: type, id: header.id))
            case .repeatOfHeld:
                emit(.duplicateSuppressed(type: type, id: header.id))
                repeatsAwaitingRun[header.id, default: []].append(route)
            }
        }
    }

    /// Runs `handler` for a request in a task of the connection, then records and answers its response.
    private func run(_ handler: @escaping RequestHandler, _ envelope: String, header: WireEnvelope.Header, route: ResponseRoute) {
        runningCount += 1
        let started = tasks.start {
            let response = await handler(envelope, header)
            self.completeRun(header.id, response: response, route: route)
            self.runningCount -= 1
        }
        if started == nil { runningCount -= 1 }
    }

    /// Persists the held requests when they changed; answers the dropped and expired ones.
    private func apply(_ action: HeldRequests.Action) {
        if action.changed {
            do {
                try heldFile?.save(held.persisted)
            } catch {
                // They stay held in memory; only a crash before the next successful save loses them.
                logger.warning("held requests could not be saved", metadata: ["error": "\(error)"])
            }
        }
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
        _ = ledger.event(.finished(id: id, response: response, now: now()))
        do {
            try ledgerFile?.save(ledger.records)
        } catch {
            // Answering still beats failing the sender; only a crash before the next save could repeat it.
            logger.warning("recorded responses could not be saved", metadata: ["error": "\(error)"])
        }
        // Recorded: a durable request leaves the held file only now.
        apply(held.event(.finished(id: id)))
        respond(response, to: route)
        for repeatRoute in repeatsAwaitingRun.removeValue(forKey: id) ?? [] { respond(response, to: repeatRoute) }
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
