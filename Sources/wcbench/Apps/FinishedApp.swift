import WatchPairWire

/// The sending app's `didFinish` handler: a `receive` stream on phoned for `didFinish` notices that
/// acknowledges them, as `WCSession` does after calling its delegate.
///
/// Without it, finished transfers would stay in phoned's outbox forever (they are kept until the app has
/// seen them), and every run would measure a store that only grows. Acks carry at most 256 ids each, at
/// most 8 in flight.
///
/// Workaround: phoned's stream shows at most 256 unacknowledged notices and re-reads them only when
/// something new arrives, not when the app acknowledges; with more than 256 pending and no further
/// transfers it shows nothing more. ``settle(count:deadline:)`` then re-opens the stream (a new stream
/// starts with the unacknowledged ones) and counts it in ``stalls``.
final class FinishedApp {
    /// The control connection holding the stream.
    private(set) var connection: BenchConnection
    private var streamId: Int64
    private let path: String
    /// How often the stream had to be re-opened because it stopped showing pending notices.
    private(set) var stalls = 0
    /// Notices received so far.
    private(set) var finished = 0
    private var unacknowledged: [String] = []
    private var acksInFlight = 0

    private init(connection: BenchConnection, streamId: Int64, path: String) {
        self.connection = connection
        self.streamId = streamId
        self.path = path
    }

    /// Connects to phoned's control socket at `path` and opens the stream.
    static func attach(_ path: String, deadline: UInt64) throws(BenchError) -> FinishedApp {
        let (connection, streamId) = try open(path, deadline: deadline)
        return FinishedApp(connection: connection, streamId: streamId, path: path)
    }

    private static func open(_ path: String, deadline: UInt64) throws(BenchError) -> (BenchConnection, Int64) {
        let connection = try BenchConnection.connect(path, retryUntil: deadline)
        let streamId = try connection.follow(channels: ["didFinish"], deadline: deadline)
        return (connection, streamId)
    }

    /// Reads notices and ack responses; acknowledges what it has seen.
    func process() throws(BenchError) {
        try connection.fill()
        while let line = try connection.nextLine() {
            if line.event == "didFinish" {
                guard let id = line.data?["transferId"]?.stringValue else {
                    throw BenchError("a didFinish event without a transferId: \(line.line)")
                }
                unacknowledged.append(id)
                finished += 1
            } else if line.event != nil {
                throw BenchError("phoned's didFinish stream sent '\(line.event ?? "")': \(line.line)")
            } else if line.id != streamId {
                acksInFlight -= 1
                guard line.ok == true else { throw BenchError("didFinish ack failed: \(line.errorDescription)") }
            }
        }
        if connection.closed { throw BenchError("phoned closed the didFinish stream's connection") }
        while !unacknowledged.isEmpty, acksInFlight < 8 {
            let batch = unacknowledged.prefix(256)
            unacknowledged.removeFirst(batch.count)
            acksInFlight += 1
            try connection.send(connection.request("ack") { $0.set("finished", Array(batch)) })
        }
    }

    /// Reads until `count` notices in all have arrived and every ack has been answered.
    func settle(count: Int, deadline: UInt64) throws(BenchError) {
        while finished < count || acksInFlight > 0 || !unacknowledged.isEmpty {
            let quiet = Monotonic.deadline(seconds: 0.2)
            if try Poller.waitReadable([connection], deadline: min(deadline, quiet)) {
                try process()
                continue
            }
            guard Monotonic.now() < deadline else {
                throw BenchError("phoned reported \(finished) of \(count) transfers finished in time")
            }
            if acksInFlight == 0, unacknowledged.isEmpty {
                // Everything shown is acknowledged, more is pending, and the stream is silent: re-open it.
                stalls += 1
                connection.shutdownWrite()
                (connection, streamId) = try Self.open(path, deadline: deadline)
            }
        }
    }
}
