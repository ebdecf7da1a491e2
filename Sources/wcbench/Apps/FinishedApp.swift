/// The sending app's `didFinish` handler: a `receive` stream on phoned for `didFinish` notices that
/// acknowledges them, as `WCSession` does after calling its delegate.
///
/// Without it, finished transfers would stay in phoned's outbox forever (they are kept until the app has
/// seen them), and every run would measure a store that only grows. Acks carry at most 256 ids each, at
/// most 8 in flight.
final class FinishedApp {
    /// The control connection holding the stream.
    let connection: BenchConnection
    private let streamId: Int64
    /// Notices received so far.
    private(set) var finished = 0
    private var unacknowledged: [String] = []
    private var acksInFlight = 0

    private init(connection: BenchConnection, streamId: Int64) {
        self.connection = connection
        self.streamId = streamId
    }

    /// Connects to phoned's control socket at `path` and opens the stream.
    static func attach(_ path: String, deadline: UInt64) throws(BenchError) -> FinishedApp {
        let connection = try BenchConnection.connect(path, retryUntil: deadline)
        let streamId = try connection.follow("\"channels\":[\"didFinish\"]", deadline: deadline)
        return FinishedApp(connection: connection, streamId: streamId)
    }

    /// Reads notices and ack responses; acknowledges what it has seen.
    func process() throws(BenchError) {
        try connection.fill()
        while let line = try connection.nextLine() {
            if line.event == "didFinish" {
                guard let id = line.string("transferId") else { throw BenchError("a didFinish event without a transferId: \(line.text)") }
                unacknowledged.append(id)
                finished += 1
            } else if line.event != nil {
                throw BenchError("phoned's didFinish stream sent '\(line.event ?? "")': \(line.text)")
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
            let ids = batch.map { "\"\($0)\"" }.joined(separator: ",")
            try connection.write("{\"id\":\(connection.makeId()),\"op\":\"ack\",\"finished\":[\(ids)]}\n")
        }
    }

    /// Reads until `count` notices in all have arrived and every ack has been answered.
    func settle(count: Int, deadline: UInt64) throws(BenchError) {
        while finished < count || acksInFlight > 0 || !unacknowledged.isEmpty {
            guard try Poller.waitReadable([connection], deadline: deadline) else {
                throw BenchError("phoned reported \(finished) of \(count) transfers finished in time")
            }
            try process()
        }
    }
}
