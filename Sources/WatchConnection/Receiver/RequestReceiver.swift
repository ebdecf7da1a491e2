import Foundation
import Logging

/// The receiving side of a ``WatchConnection``: the registered handlers, and exactly-once execution per
/// request id.
///
/// Each arriving request goes through the ``ResponseLedger`` first: a new id runs its handler once; a repeat
/// of a finished one is answered with the recorded response (`duplicateSuppressed`); a repeat that arrives
/// while the first run is still going waits for that run's response. A run's response is recorded (and
/// saved to the ``ResponseLedgerFile`` when the connection persists) before anyone is answered, so a
/// restart cannot run a finished request again. A type of its own so that ``WatchConnection`` holds the
/// sending side and the state, and this the receiving side.
@MainActor
final class RequestReceiver {
    /// Registered handlers by request type.
    var handlers: [String: RequestHandler] = [:]
    /// Reports a diagnostic event through the connection (set by it once it is initialised).
    var emit: (DiagnosticEvent) -> Void = { _ in }

    private var ledger: ResponseLedger
    private let ledgerFile: ResponseLedgerFile?
    /// Routes of repeats that arrived while their request's first run was still going.
    private var repeatsAwaitingRun: [UUID: [ResponseRoute]] = [:]
    private let session: any WCSessionProviding
    private let tasks: TaskSet
    private let logger: Logger
    /// Now on the wall timeline (the ledger's expiry survives restarts).
    private let now: () -> Duration

    init(
        ledger: ResponseLedger, ledgerFile: ResponseLedgerFile?, session: any WCSessionProviding, tasks: TaskSet,
        logger: Logger, now: @escaping () -> Duration
    ) {
        self.tasks = tasks
        self.ledger = ledger
        self.ledgerFile = ledgerFile
        self.session = session
        self.logger = logger
        self.now = now
    }

    /// A request arrived (its header already read): runs it at most once, answering on `route`.
    func receiveRequest(_ envelope: String, header: WireEnvelope.Header, route: ResponseRoute) {
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
            guard let handler = handlers[type] else {
                var failed = WireEnvelope.Header(v: WireEnvelope.version, kind: .response, id: header.id, type: type)
                failed.error = .handlerNotRegistered(type)
                completeRun(header.id, response: WireEnvelope.encode(failed), route: route)
                return
            }
            tasks.start {
                let response = await handler(envelope, header)
                self.completeRun(header.id, response: response, route: route)
            }
        }
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
