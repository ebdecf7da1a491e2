import WatchPairCore
import WatchPairWire

/// One control client: reads request lines, runs each request in its own child task (or at once, for the
/// operations that never wait: ``ControlRouter/registerImmediate(_:_:)``), writes responses.
///
/// Several requests may be in flight; at most ``maximumRequestsInFlight`` per connection (streams
/// included), beyond which reading pauses until one finishes (back-pressure, nothing is dropped). When
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
        await withTaskGroup(of: Void.self) { group in
            var inFlight = 0
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
                    if case .immediate(let respond) = request.work {
                        await writer.send(line: respond(ControlCall(id: request.id, connection: self)))
                        return true
                    }
                    while inFlight >= Self.maximumRequestsInFlight, await group.next() != nil {
                        inFlight -= 1
                    }
                    inFlight += 1
                    group.addTask { await request.run(ControlCall(id: request.id, connection: self)) }
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
        }
    }
}
