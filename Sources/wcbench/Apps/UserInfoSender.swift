import WatchPairWire

/// The sending app for userInfo: `transfer` requests on phoned's control socket, many in flight.
///
/// Each transfer's payload is `{"n": n, "p": "<pad>"}`; `n` numbers transfers across a whole pair's life
/// so the receiver can tell them apart. Accept latency is the time from writing the request to reading
/// its response (the transfer is durable then). Requests in flight are bounded by the
/// caller's window (at most 64, the daemon's per-connection limit).
final class UserInfoSender {
    /// The control connection.
    let connection: BenchConnection
    private let pad: String
    private var inFlight: [Int64: (n: Int, sentAt: UInt64)] = [:]
    /// When each transfer was sent, by `n`.
    private(set) var sentAt: [UInt64] = []
    /// Accept latencies.
    var accept = LatencyRecorder()
    /// The next `n` to send.
    private(set) var nextN: Int
    /// Transfers accepted so far.
    private(set) var accepted = 0
    /// When the latest response arrived.
    private(set) var lastAcceptedAt: UInt64 = 0

    /// Connects to phoned's control socket.
    init(_ path: String, payloadBytes: Int, firstN: Int = 1, deadline: UInt64) throws(BenchError) {
        connection = try BenchConnection.connect(path, retryUntil: deadline)
        pad = String(repeating: "x", count: payloadBytes)
        nextN = firstN
    }

    /// Requests waiting for their response.
    var pending: Int { inFlight.count }

    /// Sends the next transfer; returns its `n`.
    @discardableResult
    func send() throws(BenchError) -> Int {
        let n = nextN
        nextN += 1
        let request = connection.request("transfer") { $0.set("userInfo", JSONValue.object(["n": .integer(Int64(n)), "p": .string(pad)])) }
        let id = request.id
        let now = Monotonic.now()
        if n >= sentAt.count { sentAt.append(contentsOf: repeatElement(0, count: max(n + 1 - sentAt.count, sentAt.count))) }
        sentAt[n] = now
        inFlight[id] = (n, now)
        try connection.send(request)
        return n
    }

    /// Reads responses that have arrived. A refused transfer fails the run (wcbench keeps the sender
    /// below the daemon's outbox bound, so 7015 here means a bug).
    func process() throws(BenchError) {
        try connection.fill()
        let now = Monotonic.now()
        while let line = try connection.nextLine() {
            guard let id = line.id, let request = inFlight.removeValue(forKey: id) else { continue }
            guard line.ok == true else {
                throw BenchError("transfer n=\(request.n) refused: \(line.errorDescription)")
            }
            accept.record(nanoseconds: now - request.sentAt)
            accepted += 1
            lastAcceptedAt = now
        }
        if connection.closed { throw BenchError("phoned closed the sender's control connection") }
    }
}
