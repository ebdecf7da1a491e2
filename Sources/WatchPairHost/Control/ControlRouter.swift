import WatchPairWire

/// The control socket's operations by name: each registered once, with its request type and handler,
/// by the module that owns its vocabulary (the channels' beside the host, the reliability layer's and
/// keyed sync's beside their faces), as grpc-swift's `RPCRouter` registers a handler per method.
///
/// For each line the router reads the envelope (`id`, `op`), finds the operation, reads its request
/// from the line's bytes and hands back the work to run; any failure on the way is the 7008 answer.
public struct ControlRouter: Sendable {
    /// Reads a request; the work that serves it.
    typealias Route = @Sendable (inout ControlFieldReader) throws(WCFailure) -> Work

    /// How a request is served.
    enum Work: Sendable {
        /// In a task of its own: it may wait (on the engine, the peer, the store).
        case task(@Sendable (ControlCall) async -> Void)
        /// At once, by the connection's reader: the response line, made without waiting for anything.
        case immediate(@Sendable (ControlCall) -> [UInt8])
        /// Started by the connection's reader on the host's loop, where the engine runs, without waiting;
        /// answered later through the function it is given (once), with no task waiting in between.
        case started(@Sendable (ControlCall, _ respond: @escaping @Sendable ([UInt8]) -> Void) -> Void)
    }

    /// A request read from its line: its id and the work that serves it.
    public struct Routed: Sendable {
        /// The request's id.
        public let id: Int64
        /// Serves the request on a connection.
        let work: Work

        /// Serves the request on a connection, writing its response; `isolation` runs on the host's loop
        /// (a started request begins there, as on a connection).
        func run(_ call: ControlCall, on isolation: isolated any Actor) async {
            switch work {
            case .task(let run): await run(call)
            case .immediate(let respond): await call.writer.send(line: respond(call))
            case .started(let start):
                let line = OnceValue<[UInt8]>()
                start(call) { line.complete($0) }
                await call.writer.send(line: await line.value)
            }
        }
    }

    private var routes: [String: Route] = [:]
    private var names: [String] = []
    /// The answer to an operation not registered here; nil: "unknown op" naming the known ones.
    public var unregistered: (@Sendable (String) -> WCFailure)?
    /// Refuses a registered operation by name before it is read (nil: serve it): a phone switching watches
    /// refuses new content with 7016 while its session is inactive (docs/Watches.md).
    public var refuse: (@Sendable (String) -> WCFailure?)?
    /// Called once per connection when it has stopped reading, before the requests still running finish.
    public var connectionStopped: @Sendable (UInt64) async -> Void = { _ in }

    /// An empty router.
    public init() {}

    /// The registered operations' names, in registration order.
    public var operations: [String] { names }

    /// Registers `Operation` with a handler whose result (or `WCError`) is the single response.
    public mutating func register<Operation: ControlOperation>(
        _ operation: Operation.Type,
        _ handler: @escaping @Sendable (Operation, ControlCall) async throws(WCFailure) -> Operation.Result
    ) {
        add(Operation.name) { fields throws(WCFailure) in
            let request = try Operation(fields: &fields)
            return .task { call in
                let line: [UInt8]
                do throws(WCFailure) {
                    line = try await handler(request, call).responseLine(id: call.id)
                } catch {
                    line = ControlResponse.failure(call.id, error).lineBytes
                }
                await call.writer.send(line: line)
            }
        }
    }

    /// Registers `Operation` with a handler that writes its own response and stream events.
    public mutating func registerStream<Operation: ControlOperation>(
        _ operation: Operation.Type, _ handler: @escaping @Sendable (Operation, ControlCall) async -> Void
    ) {
        add(Operation.name) { fields throws(WCFailure) in
            let request = try Operation(fields: &fields)
            return .task { call in await handler(request, call) }
        }
    }

    /// Registers `Operation` with a handler that answers without waiting for anything, so the connection
    /// serves it as it reads it, without a task of its own (e.g. answering a live message).
    public mutating func registerImmediate<Operation: ControlOperation>(
        _ operation: Operation.Type,
        _ handler: @escaping @Sendable (Operation, ControlCall) throws(WCFailure) -> Operation.Result
    ) {
        add(Operation.name) { fields throws(WCFailure) in
            let request = try Operation(fields: &fields)
            return .immediate { call in
                do throws(WCFailure) {
                    return try handler(request, call).responseLine(id: call.id)
                } catch {
                    return ControlResponse.failure(call.id, error).lineBytes
                }
            }
        }
    }

    /// Registers `Operation` with a handler that starts the work and returns; the work reports its result
    /// (or `WCError`) once, later, through `respond`, and no task waits for it meanwhile (a live message
    /// waiting for its reply). The handler runs on the host's loop, where the engine runs, so it may enter
    /// the engine without a task (``AppChannels/startMessage(_:wantsReply:timeout:completion:replyThenError:)``).
    /// The request counts as in flight on its connection until it responded.
    public mutating func registerStarted<Operation: ControlOperation>(
        _ operation: Operation.Type,
        _ handler: @escaping @Sendable (
            Operation, ControlCall, _ respond: @escaping @Sendable (Result<Operation.Result, WCFailure>) -> Void
        ) -> Void
    ) {
        add(Operation.name) { fields throws(WCFailure) in
            let request = try Operation(fields: &fields)
            return .started { call, respond in
                let id = call.id
                handler(request, call) { result in
                    switch result {
                    case .success(let value): respond(value.responseLine(id: id))
                    case .failure(let failure): respond(ControlResponse.failure(id, failure).lineBytes)
                    }
                }
            }
        }
    }

    private mutating func add(_ name: String, _ route: @escaping Route) {
        precondition(routes[name] == nil, "control operation '\(name)' registered twice")
        routes[name] = route
        names.append(name)
    }

    /// The request `line` holds, read by its operation, or the rejection to answer with.
    public func route(_ line: some Collection<UInt8>) -> Result<Routed, ControlLineError> {
        let envelope: ControlEnvelope
        do {
            envelope = try ControlEnvelope(line: line)
        } catch {
            return .failure(error)
        }
        guard let route = routes[envelope.op] else {
            let failure = unregistered?(envelope.op)
                ?? WCFailure(.invalidParameter, "unknown op '\(envelope.op)' (known: \(names.joined(separator: ", ")))")
            return .failure(ControlLineError(id: envelope.id, failure: failure))
        }
        if let failure = refuse?(envelope.op) {
            return .failure(ControlLineError(id: envelope.id, failure: failure))
        }
        var fields = envelope.fields()
        do throws(WCFailure) {
            return .success(Routed(id: envelope.id, work: try route(&fields)))
        } catch {
            return .failure(ControlLineError(id: envelope.id, failure: error))
        }
    }
}
