/// Drives userInfo transfers from a ``UserInfoSender`` to a ``UserInfoApp`` in one thread with `poll`.
///
/// Keeps up to `window` requests in flight, and never lets the sender get more than `maxAhead`
/// transfers ahead of the receiver (8,192, below the daemons' default outbox bound of 10,000, so the
/// benchmark measures throughput, not refusals). Without an app it only waits for acceptance.
enum TransferPump {
    /// What one run did, in monotonic nanoseconds.
    struct Outcome {
        /// The first `n` sent and how many.
        var firstN: Int
        var count: Int
        /// When the first request was written.
        var start: UInt64
        /// When the last response arrived.
        var lastAccepted: UInt64
        /// When the last transfer reached the app (nil without an app).
        var lastDelivered: UInt64?

        /// Transfers per second from the first request to the last delivery (or acceptance).
        var endToEndRate: Double {
            Double(count) / Monotonic.seconds(start, lastDelivered ?? lastAccepted)
        }

        /// Transfers per second accepted by the sender.
        var acceptRate: Double { Double(count) / Monotonic.seconds(start, lastAccepted) }

        /// Send-to-delivery latency of each transfer of this run.
        func deliveryLatency(sender: UserInfoSender, app: UserInfoApp) -> LatencyRecorder {
            var recorder = LatencyRecorder()
            for n in firstN..<(firstN + count) where app.has(n) {
                recorder.record(nanoseconds: app.deliveredAt[n] - sender.sentAt[n])
            }
            return recorder
        }
    }

    /// One sender and what serves its pair: the receiving app (nil: only acceptance is waited for) and
    /// the sender's `didFinish` handler (served, its notices not waited for).
    struct Lane {
        let sender: UserInfoSender
        let app: UserInfoApp?
        var finished: FinishedApp? = nil
    }

    /// Sends `count` transfers and returns once all are accepted and (with an app) delivered. A
    /// `finished` handler on the sender's side is served meanwhile (its notices are not waited for).
    static func run(
        sender: UserInfoSender, app: UserInfoApp?, finished: FinishedApp? = nil, count: Int, window: Int,
        maxAhead: Int = 8_192, deadline: UInt64
    ) throws(BenchError) -> Outcome {
        try run(lanes: [Lane(sender: sender, app: app, finished: finished)], count: count, window: window, maxAhead: maxAhead, deadline: deadline)[0]
    }

    /// Runs every lane at once, in this one thread: `count` transfers each, up to `window` in flight per
    /// sender; returns once every lane's are accepted and delivered, one outcome per lane (all from the
    /// same start). How several pairs share one host (the pairs section).
    static func run(lanes: [Lane], count: Int, window: Int, maxAhead: Int = 8_192, deadline: UInt64) throws(BenchError) -> [Outcome] {
        let firstN = lanes.map(\.sender.nextN)
        let acceptedBefore = lanes.map(\.sender.accepted)
        let deliveredBefore = lanes.map { $0.app?.delivered ?? 0 }
        let start = Monotonic.now()
        var sent = Array(repeating: 0, count: lanes.count)
        var connections: [BenchConnection] = []
        var handlers: [() throws(BenchError) -> Void] = []
        for lane in lanes {
            connections.append(lane.sender.connection)
            handlers.append(lane.sender.process)
            if let app = lane.app {
                connections.append(app.connection)
                handlers.append(app.process)
            }
            if let finished = lane.finished {
                connections.append(finished.connection)
                handlers.append(finished.process)
            }
        }
        while true {
            var done = true
            for (index, lane) in lanes.enumerated() {
                let (sender, app) = (lane.sender, lane.app)
                let accepted = sender.accepted - acceptedBefore[index]
                let delivered = (app?.delivered ?? deliveredBefore[index]) - deliveredBefore[index]
                if accepted == count, app == nil || delivered == count { continue }
                done = false
                while sent[index] < count, sender.pending < window, app == nil || sent[index] - delivered < maxAhead {
                    try sender.send()
                    sent[index] += 1
                }
            }
            if done { break }
            let ready = try Poller.readable(connections, deadline: deadline)
            guard !ready.isEmpty else {
                let accepted = zip(lanes, acceptedBefore).map { $0.sender.accepted - $1 }
                throw BenchError("timed out: \(sent) sent, \(accepted) accepted of \(count) per sender")
            }
            for index in ready { try handlers[index]() }
        }
        return lanes.indices.map { index in
            Outcome(
                firstN: firstN[index], count: count, start: start, lastAccepted: lanes[index].sender.lastAcceptedAt,
                lastDelivered: lanes[index].app?.lastDeliveredAt)
        }
    }

    /// Reads the app's stream until `count` more transfers have arrived (the sender is idle).
    static func receive(app: UserInfoApp, count: Int, deadline: UInt64) throws(BenchError) {
        let target = app.delivered + count
        while app.delivered < target {
            guard try Poller.waitReadable([app.connection], deadline: deadline) else {
                throw BenchError("timed out: \(app.delivered - (target - count)) of \(count) delivered")
            }
            try app.process()
        }
    }
}
