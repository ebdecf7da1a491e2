import WatchPairWire

/// The pairs section: how one host's capacity divides among independent pairs running at once.
///
/// For 1, 2 and 4 pairs (each its own `phoned` + `watchd` in its own directory, with its own pair id, as
/// a CI job runs one pair per test shard), all driven at once from this one thread: message round trips
/// (64 B, auto-reply, one message in flight per pair; latency over all pairs, and the host's total rate)
/// and userInfo end to end (`power`, 64 in flight per pair; the host's total rate and the rate per pair).
/// Nothing is judged: the rows show the share each pair gets as pairs are added.
struct PairsBench {
    let context: BenchContext
    static let pairCounts = [1, 2, 4]

    func run() throws(BenchError) {
        for count in Self.pairCounts {
            var pairs: [DaemonPair] = []
            defer { for pair in pairs { pair.stopAll() } }
            for _ in 0..<count {
                let pair = try context.makePair(extra: ["pairId": "\"bench-\(pairs.count + 1)\""])
                pairs.append(pair)
                try pair.start(.watch)
                try pair.start(.phone)
            }
            context.progress("pairs: \(count) at once, message round trips")
            try messages(pairs)
            context.progress("pairs: \(count) at once, userInfo 64 in flight each")
            try transfers(pairs)
            for pair in pairs {
                for failure in pair.stopAll() { throw failure }
            }
        }
    }

    /// "1 pair", "4 pairs": the rows' prefix.
    static func name(_ count: Int) -> String { count == 1 ? "1 pair" : "\(count) pairs" }

    /// One auto-replied message in flight per pair, `messageRoundTrips` per pair after a warm-up.
    private func messages(_ pairs: [DaemonPair]) throws(BenchError) {
        let deadline = context.phaseDeadline()
        let pad = String(repeating: "a", count: 64)
        var lanes: [MessageLane] = []
        for pair in pairs {
            let stream = try BenchConnection.connect(pair.controlPath(.watch), retryUntil: deadline)
            _ = try stream.follow(channels: ["message"], deadline: deadline) { $0.set("autoReply", JSONValue.object(["p": .string(pad)])) }
            let sender = try BenchConnection.connect(pair.controlPath(.phone), retryUntil: deadline)
            lanes.append(MessageLane(sender: sender, app: MessageApp(stream: stream, answers: nil, pad: pad)))
        }
        _ = try MessageLane.roundTrips(lanes, each: context.counts.messageWarmup, pad: pad, deadline: deadline)
        let start = Monotonic.now()
        let recorder = try MessageLane.roundTrips(lanes, each: context.counts.messageRoundTrips, pad: pad, deadline: context.phaseDeadline())
        let rate = Double(recorder.count) / Monotonic.seconds(start, Monotonic.now())
        let key = "pairs.\(pairs.count).message"
        let name = Self.name(pairs.count)
        context.report.addLatency("pairs", "\(key).rtt", "\(name): message round trip, 64 B, auto-reply,", recorder.summary)
        context.report.add("pairs", "\(key).rate", "\(name): message round trips, all pairs", rate, "/s")
        for lane in lanes { lane.app.stream.shutdownWrite() }
    }

    /// `userInfoParallel / pairs` transfers per pair (the host's total stays the same), 64 in flight each.
    private func transfers(_ pairs: [DaemonPair]) throws(BenchError) {
        let deadline = context.phaseDeadline()
        var lanes: [TransferPump.Lane] = []
        for pair in pairs {
            let app = try UserInfoApp.attach(pair.controlPath(.watch), deadline: deadline)
            let sender = try UserInfoSender(pair.controlPath(.phone), payloadBytes: UserInfoBench.payloadBytes, deadline: deadline)
            let finished = try FinishedApp.attach(pair.controlPath(.phone), deadline: deadline)
            lanes.append(TransferPump.Lane(sender: sender, app: app, finished: finished))
        }
        // Warm-up: links each pair and warms its stores.
        _ = try TransferPump.run(lanes: lanes, count: 50, window: 1, deadline: deadline)
        let each = max(1, context.counts.userInfoParallel / pairs.count)
        let outcomes = try TransferPump.run(lanes: lanes, count: each, window: 64, deadline: context.phaseDeadline())
        let start = outcomes.map(\.start).min() ?? 0
        let end = outcomes.map { $0.lastDelivered ?? $0.lastAccepted }.max() ?? start
        let total = Double(each * pairs.count) / Monotonic.seconds(start, end)
        let key = "pairs.\(pairs.count).userInfo"
        let name = Self.name(pairs.count)
        context.report.add("pairs", "\(key).rate", "\(name): userInfo end to end, power, 64 in flight each, all pairs", total, "/s")
        context.report.add("pairs", "\(key).ratePerPair", "\(name): userInfo end to end, per pair", total / Double(pairs.count), "/s")
        for lane in lanes { try lane.finished?.settle(count: lane.sender.accepted, deadline: context.phaseDeadline()) }
    }
}

/// One pair's sender of messages and its auto-replying app, for round trips of several pairs at once.
struct MessageLane {
    let sender: BenchConnection
    let app: MessageApp

    /// `each` round trips per lane, one message in flight per lane, all lanes at once in this thread.
    static func roundTrips(_ lanes: [MessageLane], each: Int, pad: String, deadline: UInt64) throws(BenchError) -> LatencyRecorder {
        var recorder = LatencyRecorder()
        var left = Array(repeating: each, count: lanes.count)
        // The id and start of each lane's message in flight.
        var inFlight: [(id: Int64, start: UInt64)?] = Array(repeating: nil, count: lanes.count)
        var connections: [BenchConnection] = []
        var owners: [(lane: Int, isSender: Bool)] = []
        for (index, lane) in lanes.enumerated() {
            connections.append(lane.sender)
            owners.append((index, true))
            for connection in lane.app.connections {
                connections.append(connection)
                owners.append((index, false))
            }
        }
        while left.contains(where: { $0 > 0 }) || inFlight.contains(where: { $0 != nil }) {
            for index in lanes.indices where inFlight[index] == nil && left[index] > 0 {
                let request = lanes[index].sender.request("send") { $0.set("message", JSONValue.object(["p": .string(pad)])) }
                inFlight[index] = (request.id, Monotonic.now())
                try lanes[index].sender.write(request.lineBytes)
                left[index] -= 1
            }
            let ready = try Poller.readable(connections, deadline: deadline)
            guard !ready.isEmpty else { throw BenchError("no reply in time; \(left) messages left per pair") }
            for index in ready {
                let (laneIndex, isSender) = owners[index]
                let lane = lanes[laneIndex]
                guard isSender else {
                    try lane.app.process()
                    continue
                }
                try lane.sender.fill()
                while let line = try lane.sender.nextLine() {
                    guard let current = inFlight[laneIndex], line.id == current.id else { continue }
                    guard line.ok == true else { throw BenchError("message failed: \(line.errorDescription)") }
                    recorder.record(nanoseconds: Monotonic.now() - current.start)
                    inFlight[laneIndex] = nil
                }
                if lane.sender.closed { throw BenchError("phoned closed the sender's connection") }
            }
        }
        return recorder
    }
}
