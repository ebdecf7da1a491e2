import WatchPairWire

/// The receiving app for userInfo: a `receive` stream on watchd's control socket that acknowledges what
/// it gets, as an app's delegate would.
///
/// It also checks the channel's promise while it measures: every transfer (identified by the `n` wcbench
/// put in its payload) arrives exactly once, and in the sender's order (`seq` strictly increasing).
/// Acknowledgements are batched: one `ack` up to the newest `deliveryId` after each read that delivered
/// something, with at most 16 acks in flight (the daemon runs 64 requests per connection, the stream
/// is one of them).
final class UserInfoApp {
    /// The control connection holding the stream.
    let connection: BenchConnection
    private let streamId: Int64
    /// Transfers delivered so far.
    private(set) var delivered = 0
    /// When each transfer was delivered, by `n` (0: not yet).
    private(set) var deliveredAt: [UInt64] = []
    /// When the first and the latest transfer arrived.
    private(set) var firstDeliveredAt: UInt64?
    private(set) var lastDeliveredAt: UInt64 = 0
    private var lastSeq: Int64 = 0
    private var newestDeliveryId: Int64 = 0
    private var ackedUpTo: Int64 = 0
    private var acksInFlight = 0
    private static let maxAcksInFlight = 16

    private init(connection: BenchConnection, streamId: Int64) {
        self.connection = connection
        self.streamId = streamId
    }

    /// Connects to watchd's control socket at `path` (retrying while it starts) and opens the stream.
    static func attach(_ path: String, deadline: UInt64) throws(BenchError) -> UserInfoApp {
        let connection = try BenchConnection.connect(path, retryUntil: deadline)
        let streamId = try connection.follow(channels: ["userInfo"], deadline: deadline)
        return UserInfoApp(connection: connection, streamId: streamId)
    }

    /// Whether transfer `n` has been delivered.
    func has(_ n: Int) -> Bool { n < deliveredAt.count && deliveredAt[n] != 0 }

    /// Reads what has arrived, records deliveries, and acknowledges them.
    func process() throws(BenchError) {
        try connection.fill()
        let now = Monotonic.now()
        while let line = try connection.nextLine() {
            if line.event == "userInfo" {
                try deliver(line, at: now)
            } else if line.event != nil {
                throw BenchError("watchd's receive stream sent '\(line.event ?? "")': \(line.line)")
            } else if line.id != streamId {
                acksInFlight -= 1
                guard line.ok == true else { throw BenchError("ack failed: \(line.errorDescription)") }
            }
        }
        if connection.closed { throw BenchError("watchd closed the app's control connection") }
        if newestDeliveryId > ackedUpTo, acksInFlight < Self.maxAcksInFlight {
            acksInFlight += 1
            ackedUpTo = newestDeliveryId
            try connection.send(connection.request("ack") { $0.set("deliveryId", UInt64(clamping: newestDeliveryId)) })
        }
    }

    /// Waits until every acknowledgement sent has been answered.
    func settleAcks(deadline: UInt64) throws(BenchError) {
        while acksInFlight > 0 || newestDeliveryId > ackedUpTo {
            guard try Poller.waitReadable([connection], deadline: deadline) else {
                throw BenchError("watchd did not answer the app's acks in time")
            }
            try process()
        }
    }

    private func deliver(_ line: ControlResponse, at now: UInt64) throws(BenchError) {
        guard let data = line.data, let n = data["userInfo"]?["n"]?.integerValue, let seq = data["seq"]?.integerValue,
            let deliveryId = data["deliveryId"]?.integerValue
        else {
            throw BenchError("a userInfo event without n/seq/deliveryId: \(line.line)")
        }
        guard seq > lastSeq else {
            throw BenchError("userInfo out of order or repeated: seq \(seq) after \(lastSeq) (transfer n=\(n))")
        }
        let index = Int(n)
        if index >= deliveredAt.count {
            deliveredAt.append(contentsOf: repeatElement(0, count: max(index + 1 - deliveredAt.count, deliveredAt.count)))
        }
        guard deliveredAt[index] == 0 else { throw BenchError("userInfo n=\(n) delivered twice") }
        deliveredAt[index] = now
        lastSeq = seq
        newestDeliveryId = max(newestDeliveryId, deliveryId)
        delivered += 1
        if firstDeliveredAt == nil { firstDeliveredAt = now }
        lastDeliveredAt = now
    }
}
