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

    /// Sends `count` transfers and returns once all are accepted and (with an app) delivered. A
    /// `finished` handler on the sender's side is served meanwhile (its notices are not waited for).
    static func run(
        sender: UserInfoSender, app: UserInfoApp?, finished: FinishedApp? = nil, count: Int, window: Int,
        maxAhead: Int = 8_192, deadline: UInt64
    ) throws(BenchError) -> Outcome {
        let firstN = sender.nextN
        let acceptedBefore = sender.accepted
        let deliveredBefore = app?.delivered ?? 0
        let start = Monotonic.now()
        var sent = 0
        var connections = [sender.connection]
        var handlers: [() throws(BenchError) -> Void] = [sender.process]
        if let app {
            connections.append(app.connection)
            handlers.append(app.process)
        }
        if let finished {
            connections.append(finished.connection)
            handlers.append(finished.process)
        }
        while true {
            let accepted = sender.accepted - acceptedBefore
            let delivered = (app?.delivered ?? deliveredBefore) - deliveredBefore
            if accepted == count, app == nil || delivered == count { break }
            while sent < count, sender.pending < window, app == nil || sent - delivered < maxAhead {
                try sender.send()
                sent += 1
            }
            let ready = try Poller.readable(connections, deadline: deadline)
            guard !ready.isEmpty else {
                throw BenchError("timed out: \(sent) sent, \(accepted) accepted, \(delivered) delivered of \(count)")
            }
            for index in ready { try handlers[index]() }
        }
        return Outcome(
            firstN: firstN, count: count, start: start, lastAccepted: sender.lastAcceptedAt,
            lastDelivered: app?.lastDeliveredAt)
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
