import Synchronization
import WatchPairCore
import WatchPairWire

/// One control client: reads request lines, runs each request in its own child task (or at once, for the
/// operations that never wait: ``ControlRouter/registerImmediate(_:_:)``), writes responses.
///
/// Several requests may be in flight; at most ``maximumRequestsInFlight`` per connection (streams and
/// started requests included), beyond which reading pauses until one finishes (back-pressure, nothing is
/// dropped). When
/// the client closes its sending side (or the connection breaks, or the daemon stops), streams end,
/// requests already running finish and write their responses, and the connection closes. A malformed
/// line gets a 7008 response and the connection stays usable; a line over 1 MiB gets one and closes it.
public final class ControlConnection: Sendable {
    /// Most requests running at once on one connection.
    static let maximumRequestsInFlight = 64

    /// The connection's number, unique within the host.
    public let id: UInt64
    /// Where responses and stream events go.
    public let writer: ControlWriter
    /// Fires once when the connection stops reading; streams end then.
    public let closing = AsyncSignal()

    init(id: UInt64, writer: ControlWriter) {
        self.id = id
        self.writer = writer
    }

    /// Whether the connection is closing.
    public var isClosing: Bool { closing.generation > 0 }

    /// Serves the connection until the client is done. `attached` is called before the first request
    /// runs; `stopped` once reading has stopped, before waiting for the requests still running.
    func run(
        _ inbound: some AsyncSequence<[UInt8], any Error>,
        router: ControlRouter,
        attached: @Sendable () -> Void,
        stopped: @Sendable () async -> Void
    ) async {
        var splitter = ControlLineSplitter(limit: ControlEnvelope.lineLimit)
        var isAttached = false
        // Requests running in a task or started and not yet answered; reading waits while it is at the limit.
        let inFlight = RequestsInFlight()
        await withDiscardingTaskGroup { group in
            func dispatch(_ piece: ControlLineSplitter.Piece) async -> Bool {
                guard case .line(let bytes) = piece else {
                    let rejection = WCFailure(.invalidParameter, "The request line is longer than \(ControlEnvelope.lineLimit) bytes; closing.")
                    await writer.send(.failure(nil, rejection))
                    return false
                }
                if !isAttached {
                    isAttached = true
                    attached()
                }
                switch router.route(bytes) {
                case .failure(let rejection):
                    await writer.send(.failure(rejection.id, rejection.failure))
                case .success(let request):
                    let call = ControlCall(id: request.id, connection: self)
                    switch request.work {
                    case .immediate(let respond):
                        await writer.send(line: respond(call))
                    case .started(let start):
                        await inFlight.begin(limit: Self.maximumRequestsInFlight)
                        let started = inFlight.open(request.id)
                        let writer = self.writer
                        await start(call) { line in
                            if inFlight.close(started) { writer.sendNow(line: line) }
                        }
                    case .task(let run):
                        await inFlight.begin(limit: Self.maximumRequestsInFlight)
                        group.addTask {
                            await run(call)
                            inFlight.end()
                        }
                    }
                }
                return true
            }
            do {
                reading: for try await bytes in inbound {
                    for piece in splitter.append(bytes) {
                        guard await dispatch(piece) else { break reading }
                    }
                }
                for piece in splitter.finish() {
                    guard await dispatch(piece) else { break }
                }
            } catch {
                // The connection broke or the daemon is stopping: end like a clean close.
            }
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
