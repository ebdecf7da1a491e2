import Glibc

/// Section `peers` (`wcbench --peers`): a durable local message broker doing the same jobs, in the same
/// run, and WatchPair's ratio to it (issue 15).
///
/// The peer is Debian's mosquitto at MQTT QoS 1 over a Unix socket, run twice: with its default
/// persistence (a snapshot every 30 min: nothing is durable when it acknowledges) and with a snapshot after
/// every change (its nearest to "durable before acknowledged"). wcbench's clients speak MQTT 3.1.1
/// themselves (``MQTTClient``), from one thread, as wcbench drives the daemons. The jobs, each with 64 B
/// payloads:
/// - **round trip**: a requester publishes to `req`; a responder subscribed to `req` publishes the payload
///   back to `rep`; timed to the reply's arrival (WatchPair: a message with its reply).
/// - **64 in flight**: a publisher keeps 64 unacknowledged messages out; the rate at which a subscriber
///   receives them (WatchPair: userInfo, 64 in flight, end to end).
/// - **sequential**: publish, wait for the broker's PUBACK (accept latency) and for the subscriber's
///   copy, then the next (WatchPair: userInfo, sequential, accept latency and end-to-end rate).
/// The broker's CPU, fsyncs (perf) and bytes written per message are measured as for the daemons. With a
/// snapshot per change each job runs at most 1,000 times (the broker then manages ~100–200 a second).
struct PeersBench {
    let context: BenchContext

    /// A measured job's broker-side costs.
    private struct Cost {
        var cpuSeconds: Double
        var writeBytes: Int
        var fsyncs: Int?
    }

    func run() throws(BenchError) {
        guard let binary = Mosquitto.locate() else {
            throw BenchError("mosquitto not found: install Debian's mosquitto (scripts/deps.sh does) to compare with a peer")
        }
        for persistence in Mosquitto.Persistence.allCases {
            let broker = try Mosquitto(
                binary: binary, directory: "\(context.runDirectory)/mosquitto-\(persistence.rawValue)", persistence: persistence,
                deadline: context.phaseDeadline())
            defer { broker.stop() }
            try measure(broker, persistence)
        }
        compare()
    }

    private func measure(_ broker: Mosquitto, _ persistence: Mosquitto.Persistence) throws(BenchError) {
        let mode = persistence.rawValue
        // A snapshot per change costs the broker an fsync per message (~100/s here): fewer samples.
        let limit = persistence == .snapshot ? Int.max : 1_000
        var counts = context.counts
        counts.messageRoundTrips = min(counts.messageRoundTrips, limit)
        counts.userInfoParallel = min(counts.userInfoParallel, limit)
        counts.userInfoSequential = min(counts.userInfoSequential, limit)
        let payload = [UInt8](repeating: UInt8(ascii: "a"), count: 64)

        context.progress("peers: mosquitto (\(mode)), \(counts.messageRoundTrips) round trips")
        let requester = try client(broker, "requester", subscribe: "rep")
        let responder = try client(broker, "responder", subscribe: "req")
        _ = try roundTrips(requester, responder, payload, count: counts.messageWarmup)
        var (recorder, cost) = try metered(broker, "rtt-\(mode)") { () throws(BenchError) in
            try roundTrips(requester, responder, payload, count: counts.messageRoundTrips)
        }
        context.report.addLatency("peers", "peers.\(mode).rtt.64B", "mosquitto (\(mode)), QoS 1 round trip, 64 B,", recorder.summary)
        report(cost, per: recorder.count * 2, key: "peers.\(mode).rtt", label: "mosquitto (\(mode)), round trip", unit: "message")

        let inflight = counts.userInfoParallel
        context.progress("peers: mosquitto (\(mode)), \(inflight) messages, 64 in flight")
        let publisher = try client(broker, "publisher", subscribe: nil)
        let subscriber = try client(broker, "subscriber", subscribe: "flow")
        let rate: Double
        (rate, cost) = try metered(broker, "inflight64-\(mode)") { () throws(BenchError) in
            try inFlight(publisher, subscriber, payload, count: inflight, window: 64)
        }
        context.report.add("peers", "peers.\(mode).inflight64.rate", "mosquitto (\(mode)), QoS 1, 64 in flight: end to end", rate, "/s")
        report(cost, per: inflight, key: "peers.\(mode).inflight64", label: "mosquitto (\(mode)), 64 in flight", unit: "message")

        context.progress("peers: mosquitto (\(mode)), \(counts.userInfoSequential) messages one at a time")
        let sequential: (accept: LatencyRecorder, rate: Double)
        (sequential, cost) = try metered(broker, "sequential-\(mode)") { () throws(BenchError) in
            try oneAtATime(publisher, subscriber, payload, count: counts.userInfoSequential)
        }
        context.report.add(
            "peers", "peers.\(mode).sequential.accept.p50", "mosquitto (\(mode)), QoS 1, sequential: accept (PUBACK) p50",
            sequential.accept.summary.p50, "us")
        context.report.add("peers", "peers.\(mode).sequential.rate", "mosquitto (\(mode)), QoS 1, sequential: end to end", sequential.rate, "/s")
        report(cost, per: counts.userInfoSequential, key: "peers.\(mode).sequential", label: "mosquitto (\(mode)), sequential", unit: "message")
    }

    // MARK: The jobs

    private func client(_ broker: Mosquitto, _ name: String, subscribe topic: String?) throws(BenchError) -> MQTTClient {
        let client = try MQTTClient(path: broker.socketPath, clientID: "wcbench-\(name)", deadline: context.phaseDeadline())
        if let topic { try client.subscribe(topic, deadline: context.phaseDeadline()) }
        return client
    }

    private func roundTrips(
        _ requester: MQTTClient, _ responder: MQTTClient, _ payload: [UInt8], count: Int
    ) throws(BenchError) -> LatencyRecorder {
        var recorder = LatencyRecorder()
        let deadline = context.phaseDeadline()
        let clients = [requester, responder]
        for _ in 0..<count {
            let start = Monotonic.now()
            try requester.write(MQTTPacket.publish(topic: "req", packetID: requester.makeID(), payload: payload))
            answered: while true {
                let index = try MQTTClient.ready(clients, deadline: deadline)
                guard case .publish(_, let id?, let body) = try clients[index].next(deadline: deadline) else { continue }
                try clients[index].write(MQTTPacket.puback(id))
                if index == 1 {
                    try responder.write(MQTTPacket.publish(topic: "rep", packetID: responder.makeID(), payload: body))
                } else {
                    recorder.record(nanoseconds: Monotonic.now() - start)
                    break answered
                }
            }
        }
        return recorder
    }

    /// The rate at which `subscriber` receives `count` messages that `publisher` keeps `window` of in flight.
    private func inFlight(
        _ publisher: MQTTClient, _ subscriber: MQTTClient, _ payload: [UInt8], count: Int, window: Int
    ) throws(BenchError) -> Double {
        let deadline = context.phaseDeadline()
        let clients = [publisher, subscriber]
        var (sent, acknowledged, received) = (0, 0, 0)
        let start = Monotonic.now()
        while received < count {
            var batch: [UInt8] = []
            while sent - acknowledged < window && sent < count {
                batch += MQTTPacket.publish(topic: "flow", packetID: publisher.makeID(), payload: payload)
                sent += 1
            }
            if !batch.isEmpty { try publisher.write(batch) }
            let index = try MQTTClient.ready(clients, deadline: deadline)
            switch try clients[index].next(deadline: deadline) {
            case .puback where index == 0: acknowledged += 1
            case .publish(_, let id?, _) where index == 1:
                try subscriber.write(MQTTPacket.puback(id))
                received += 1
            default: break
            }
        }
        return Double(count) / Monotonic.seconds(start, Monotonic.now())
    }

    /// One message at a time: its accept latency (the broker's PUBACK), then its arrival at the subscriber.
    private func oneAtATime(
        _ publisher: MQTTClient, _ subscriber: MQTTClient, _ payload: [UInt8], count: Int
    ) throws(BenchError) -> (accept: LatencyRecorder, rate: Double) {
        var accept = LatencyRecorder()
        let deadline = context.phaseDeadline()
        let clients = [publisher, subscriber]
        let start = Monotonic.now()
        for _ in 0..<count {
            let sent = Monotonic.now()
            try publisher.write(MQTTPacket.publish(topic: "flow", packetID: publisher.makeID(), payload: payload))
            var (accepted, arrived) = (false, false)
            while !(accepted && arrived) {
                let index = try MQTTClient.ready(clients, deadline: deadline)
                switch try clients[index].next(deadline: deadline) {
                case .puback where index == 0:
                    accept.record(nanoseconds: Monotonic.now() - sent)
                    accepted = true
                case .publish(_, let id?, _) where index == 1:
                    try subscriber.write(MQTTPacket.puback(id))
                    arrived = true
                default: break
                }
            }
        }
        return (accept, Double(count) / Monotonic.seconds(start, Monotonic.now()))
    }

    // MARK: Costs and ratios

    /// Runs `body` with the broker's CPU, bytes written and (with perf) fsyncs measured around it.
    private func metered<T>(_ broker: Mosquitto, _ name: String, _ body: () throws(BenchError) -> T) throws(BenchError) -> (T, Cost) {
        let counter: SyscallCounter? = context.binaries.perf.flatMap { perf in
            try? SyscallCounter(perf: perf, pid: broker.process.pid, directory: broker.directory, name: name)
        }
        try counter?.enable()
        let before = try ProcessStats.of(broker.process.pid)
        let result = try body()
        let after = try ProcessStats.of(broker.process.pid)
        let fsyncs = try counter.map { counter throws(BenchError) in SyscallCounter.fsyncs(try counter.finish()) }
        return (result, Cost(cpuSeconds: after.cpuSeconds - before.cpuSeconds, writeBytes: after.storageWriteBytes - before.storageWriteBytes, fsyncs: fsyncs))
    }

    private func report(_ cost: Cost, per count: Int, key: String, label: String, unit: String) {
        let report = context.report
        report.add("peers", "\(key).cpuPerMessage", "\(label): broker CPU per \(unit)", cost.cpuSeconds / Double(count) * 1e6, "us")
        report.add("peers", "\(key).storageBytesPerMessage", "\(label): bytes written to storage per \(unit)", Double(cost.writeBytes) / Double(count), "B")
        report.add(
            "peers", "\(key).fsyncsPerMessage", "\(label): fsyncs per \(unit)", cost.fsyncs.map { Double($0) / Double(count) }, "",
            note: cost.fsyncs == nil ? "perf unavailable" : nil)
    }

    /// WatchPair's figures of the same run over the peer's, where the message and userInfo sections ran.
    private func compare() {
        let report = context.report
        let pairs: [(ours: String, peer: String, label: String)] = [
            ("message.rtt.64B.autoReply.p50", "rtt.64B.p50", "message round trip p50 (through both daemons) / the peer's QoS 1 round trip p50"),
            ("userInfo.power.inflight64.rate", "inflight64.rate", "userInfo 64 in flight, end to end (power) / the peer's QoS 1 rate"),
            ("userInfo.power.sequential.accept.p50", "sequential.accept.p50", "userInfo sequential accept p50 (power) / the peer's PUBACK p50"),
            ("userInfo.power.sequential.rate", "sequential.rate", "userInfo sequential, end to end (power) / the peer's rate"),
        ]
        var missing = false
        for persistence in Mosquitto.Persistence.allCases {
            for pair in pairs {
                guard let ours = report.value(pair.ours), let peer = report.value("peers.\(persistence.rawValue).\(pair.peer)"), peer > 0 else {
                    missing = true
                    continue
                }
                report.add("peers", "peers.\(persistence.rawValue).ratio.\(pair.peer)", "WatchPair \(pair.label), mosquitto \(persistence.rawValue)", ours / peer, "x")
            }
        }
        if missing {
            report.notes.append("peers: ratios need the message and userInfo sections in the same run (wcbench --peers runs them all)")
        }
    }
}
