import Synchronization
import WatchPairCore
import WatchPairWire

/// One control client: reads request lines, serves each, writes responses.
///
/// The lines are read on the host's loop, where the engine runs, as the socket hands them over
/// (``LoopBacklog``): a request that needs no waiting (``ControlRouter/registerImmediate(_:_:)``, a
/// started request such as a live message, a malformed line) is served there, in place, while the
/// client's socket has room; any other runs in a child task, and the lines behind a request that must wait
/// (for room in flight or on the socket) wait for the connection's reader task, in order.
///
/// Several requests may be in flight; at most ``maximumRequestsInFlight`` per connection (streams and
/// started requests included), beyond which reading pauses until one finishes (back-pressure, nothing is
/// dropped). When the client closes its sending side (or the connection breaks, or the daemon stops),
/// streams end, requests already running finish and write their responses, and the connection closes. A
/// malformed line gets a 7008 response and the connection stays usable; a line over 1 MiB gets one and
/// closes it.
public final class ControlConnection: Sendable {
    /// Most requests running at once on one connection.
    static let maximumRequestsInFlight = 64

    /// The connection's number, unique within the host.
    public let id: UInt64
    /// Where responses and stream events go.
    public let writer: ControlWriter
    /// Fires once when the connection stops reading; streams end then.
    public let closing = AsyncSignal()
    /// Requests running in a task or started and not yet answered; reading waits while it is at the limit.
    private let inFlight = RequestsInFlight()
    /// Whether the client sent its first request (``run(_:on:router:attached:stopped:)``'s `attached`).
    private let attachment = Mutex(false)

    init(id: UInt64, writer: ControlWriter) {
        self.id = id
        self.writer = writer
    }

    /// Whether the connection is closing.
    public var isClosing: Bool { closing.generation > 0 }

    /// Serves `client` until it is done, on `isolation`, the host's loop (where its sockets are read and
    /// the engine runs). `attached` is called before the first request runs; `stopped` once reading has
    /// stopped, before waiting for the requests still running.
    func run(
        _ client: any TransportConnection,
        on isolation: isolated ExecutorIsolation,
        router: ControlRouter,
        attached: @escaping @Sendable () -> Void,
        stopped: @Sendable () async -> Void
    ) async {
        await withDiscardingTaskGroup { group in
            await readLines(of: client, router: router, attached: attached, group: &group, isolation)
            closing.fire()
            await stopped()
            // A client may half-close and still read its responses: started requests answer first. A
            // daemon that stops cannot wait for them; they are told so.
            await inFlight.drain()
            for id in inFlight.abandonStarted() {
                await writer.send(.failure(id, WCFailure(.genericError, "the daemon is stopping; the request's outcome is unknown")))
            }
        }
    }

    /// A line on the host's loop: served there when it needs no waiting and the client's socket has room
    /// for the answer; false leaves it, routed, and the lines behind it, to the reader task.
    private func serveInPlace(_ item: inout ControlLines.Item, router: ControlRouter, attached: () -> Void) -> Bool {
        guard writer.hasRoom, let routed = item.routed(by: router) else { return false }
        switch routed {
        case .failure(let rejection):
            attach(attached)
            writer.sendNow(line: ControlResponse.failure(rejection.id, rejection.failure).lineBytes)
        case .success(let request):
            switch request.work {
            case .task:
                item = .routed(routed)
                return false
            case .immediate(let respond):
                attach(attached)
                writer.sendNow(line: respond(ControlCall(id: request.id, connection: self)))
            case .started(let start):
                guard inFlight.tryBegin(limit: Self.maximumRequestsInFlight) else {
                    item = .routed(routed)
                    return false
                }
                attach(attached)
                begin(request.id, start)
            }
        }
        return true
    }

    /// Reads the client's lines until it is done: the loop serves what it can in place, this task the rest,
    /// in order, then an unterminated last line at a clean end. A broken connection or a stopping daemon
    /// ends reading like a clean close.
    private func readLines(
        of client: any TransportConnection, router: ControlRouter, attached: @escaping @Sendable () -> Void,
        group: inout DiscardingTaskGroup, _ isolation: isolated ExecutorIsolation
    ) async {
        let backlog = LoopBacklog(decoder: ControlLines(limit: ControlEnvelope.lineLimit))
        func serveItems(_ items: [ControlLines.Item]) async -> Bool {
            for item in items {
                guard await serve(item, router: router, attached: attached, group: &group, isolation) else { return false }
            }
            return true
        }
        let end = await backlog.read(
            client, on: isolation.executor, isolation: isolation,
            inPlace: { self.serveInPlace(&$0, router: router, attached: attached) }, serve: serveItems)
        if case .closed = end {
            var lines = backlog.decoder
            _ = await serveItems(lines.finish())
        }
    }

    /// Serves one line in the reader task, waiting for room as needed; false when reading must stop.
    private func serve(
        _ item: ControlLines.Item, router: ControlRouter, attached: @Sendable () -> Void,
        group: inout DiscardingTaskGroup, _ isolation: isolated ExecutorIsolation
    ) async -> Bool {
        guard let routed = item.routed(by: router) else {
            let rejection = WCFailure(.invalidParameter, "The request line is longer than \(ControlEnvelope.lineLimit) bytes; closing.")
            await writer.send(.failure(nil, rejection))
            return false
        }
        attach(attached)
        switch routed {
        case .failure(let rejection):
            await writer.send(.failure(rejection.id, rejection.failure))
        case .success(let request):
            let call = ControlCall(id: request.id, connection: self)
            switch request.work {
            case .immediate(let respond):
                await writer.send(line: respond(call))
            case .started(let start):
                await inFlight.begin(limit: Self.maximumRequestsInFlight)
                // Back on the loop after the wait: a started request begins there.
                begin(request.id, start)
            case .task(let run):
                await inFlight.begin(limit: Self.maximumRequestsInFlight)
                let inFlight = self.inFlight
                group.addTask {
                    await run(call)
                    inFlight.end()
                }
            }
        }
        return true
    }

    /// Starts request `id` (already counted in flight); its answer is written when it comes, unless the
    /// connection abandoned it meanwhile.
    private func begin(_ id: Int64, _ start: @Sendable (ControlCall, _ respond: @escaping @Sendable ([UInt8]) -> Void) -> Void) {
        let started = inFlight.open(id)
        let (inFlight, writer) = (self.inFlight, self.writer)
        start(ControlCall(id: id, connection: self)) { line in
            if inFlight.close(started) { writer.sendNow(line: line) }
        }
    }

    /// Calls `attached` before the client's first request.
    private func attach(_ attached: () -> Void) {
        let first = attachment.withLock { attachment in
            defer { attachment = true }
            return !attachment
        }
        if first { attached() }
    }
}

/// A connection's requests in flight, counted where they end (a task's end, a started request's answer),
/// so that reading can wait for room and the connection for its started requests.
final class RequestsInFlight: Sendable {
    private struct State {
        var count = 0
        /// Started requests not answered yet: their request ids by start number.
        var started: [UInt64: Int64] = [:]
        var nextStart: UInt64 = 0
    }

    private let state = Mutex(State())
    private let ended = AsyncSignal()

    /// Counts one more request, first waiting while `limit` are in flight.
    func begin(limit: Int) async {
        while true {
            let seen = ended.generation
            if tryBegin(limit: limit) { return }
            await ended.wait(after: seen)
        }
    }

    /// Counts one more request if fewer than `limit` are in flight; false, counting nothing, otherwise.
    func tryBegin(limit: Int) -> Bool {
        state.withLock { state in
            guard state.count < limit else { return false }
            state.count += 1
            return true
        }
    }

    /// Requests in flight now.
    var count: Int { state.withLock { $0.count } }

    /// A task's request ended.
    func end() {
        state.withLock { $0.count -= 1 }
        ended.fire()
    }

    /// Records a started request (counted by ``begin(limit:)``); its number for ``close(_:)``.
    func open(_ requestId: Int64) -> UInt64 {
        state.withLock { state in
            state.nextStart += 1
            state.started[state.nextStart] = requestId
            return state.nextStart
        }
    }

    /// A started request answered: true when it was still open (its answer is to be written), false
    /// when the connection abandoned it meanwhile.
    func close(_ start: UInt64) -> Bool {
        let open = state.withLock { state in
            guard state.started.removeValue(forKey: start) != nil else { return false }
            state.count -= 1
            return true
        }
        if open { ended.fire() }
        return open
    }

    /// Waits until no request is in flight, or the calling task is cancelled.
    func drain() async {
        while !Task.isCancelled {
            let seen = ended.generation
            guard state.withLock({ $0.count > 0 }) else { return }
            await ended.wait(after: seen)
        }
    }

    /// Closes every started request still open; their request ids, to be told they were abandoned.
    func abandonStarted() -> [Int64] {
        state.withLock { state in
            defer { state.started.removeAll() }
            state.count -= state.started.count
            return state.started.sorted { $0.key < $1.key }.map(\.value)
        }
    }
}
