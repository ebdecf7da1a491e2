import WatchPairCore
import WatchPairHost
import WatchPairWire

/// `wait`: blocks until a condition on the app's own state holds (`wcctl wait`).
///
/// The condition is checked once, then again each time one of the engine signals it depends on fires,
/// so nothing polls. The answer is `{"met": true}` as soon as it holds, `{"met": false}` when `timeout`
/// passes first on the daemon's clock. A client that closes its sending side gets the condition as it
/// is at that moment (`printf … | socat` checks without waiting); a daemon that stops answers 7001
/// (genericError) if it still can.
struct WaitOperation: ControlOperation {
    static let name = "wait"

    var condition: WaitCondition
    /// With `handler`: wait for a `serve` client of this type instead of a `receive` client.
    var requestType: String?
    /// Seconds to wait at most; nil: no limit.
    var timeout: Double?

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        var condition: WaitCondition?
        while let field = try fields.next() {
            switch field {
            case "condition": condition = try fields.option(WaitCondition.self)
            case "requestType": requestType = try fields.name()
            case "timeout":
                timeout = try fields.number()
                if let seconds = timeout, !(seconds.isFinite && seconds >= 0) { throw fields.wrong("a non-negative number of seconds") }
            default: try fields.skip()
            }
        }
        guard let condition else { throw Self.missing("condition") }
        if requestType != nil, condition != .handler { throw refusal("'requestType' is for the 'handler' condition only") }
        self.condition = condition
    }

    static func register(on router: inout ControlRouter, clock: any Clock<Duration>, state: @escaping @Sendable (String?) -> WaitState) {
        router.register(Self.self) { request, call throws(WCFailure) in
            try await wait(request, state: state(request.requestType), clock: clock, connection: call.connection)
        }
    }

    private static func wait(
        _ request: WaitOperation, state: WaitState, clock: any Clock<Duration>, connection: ControlConnection
    ) async throws(WCFailure) -> JSONValue {
        let condition = request.condition
        let met = await withTaskGroup(of: Bool?.self) { group in
            group.addTask { await Self.waitUntil(condition, state: state, connection: connection) }
            if let timeout = request.timeout {
                group.addTask {
                    // nil when cancelled: the condition won.
                    (try? await Waiting.sleep(on: clock, for: .seconds(timeout))).map { false }
                }
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if let met { return .object(["met": .bool(met)]) }
        guard !Task.isCancelled else { throw WCFailure(.genericError, "the daemon is stopping; the wait ended") }
        return .object(["met": .bool(await state.holds(condition))])
    }

    /// True once `condition` holds; nil when the client closed its sending side or the task was cancelled.
    private static func waitUntil(_ condition: WaitCondition, state: WaitState, connection: ControlConnection) async -> Bool? {
        while !Task.isCancelled, !connection.isClosing {
            // Generations first, then the check: a change in between wakes the wait at once.
            let signals: [(AsyncSignal, UInt64)] = state.signals(for: condition).map { ($0, $0.generation) } + [(connection.closing, 0)]
            if await state.holds(condition) { return true }
            await Waiting.any(signals)
        }
        return nil
    }
}

/// What the wait conditions read: the engine's status, the app's message handlers and the request types
/// its `serve` clients handle.
struct WaitState: Sendable {
    let channels: AppChannels
    let router: MessageRouter
    let connection: AppConnection
    /// With `handler`: the request type a `serve` client must handle (nil: a `receive` client).
    let requestType: String?

    /// Whether `condition` holds now.
    func holds(_ condition: WaitCondition) async -> Bool {
        if condition == .handler {
            guard let requestType else { return router.handlerCount > 0 }
            return await connection.isServing(requestType)
        }
        return condition.isMet(by: await channels.status())
    }

    /// The signals that fire whenever what ``holds(_:)`` reads for `condition` may have changed.
    func signals(for condition: WaitCondition) -> [AsyncSignal] {
        switch condition {
        case .ready: [channels.activationSignal]
        case .reachable: [channels.stateSignal]
        case .drained: [channels.contentSignal, channels.stateSignal]
        case .idle: [channels.contentSignal, channels.stateSignal, channels.messageSignal]
        case .handler: requestType == nil ? [router.changed] : [connection.servingChanged]
        }
    }
}

extension WaitCondition {
    /// Whether the condition holds in `status` (``handler`` is not in it: false).
    func isMet(by status: EngineStatus) -> Bool {
        switch self {
        case .ready: status.activated
        case .reachable: status.reachable
        case .drained: status.isDrained
        case .idle: status.isIdle
        case .handler: false
        }
    }
}
