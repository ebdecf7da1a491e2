import Glibc
import WatchPairWire

/// Section 2: messages with a reply, phone → watch.
///
/// The sender is a client of phoned's control socket (`send`), the time is from writing the request to
/// reading the reply. Two receiving apps on watchd: one registered with `autoReply` (watchd writes the
/// message event to the app and answers at once: client → phoned → watchd → phoned → client, four socket
/// crossings where the raw ping-pong has two) and one that answers each message event itself with
/// `answer` (six crossings). The reply has the size of the message. Then 64 messages in flight
/// (auto-reply). The auto-reply round trips are judged by ``RoundTripTargets`` and set beside the
/// baseline section's epoll relay floor (the same four crossings through processes that do no work).
struct MessageBench {
    let context: BenchContext

    func run() throws(BenchError) {
        let pair = try context.makePair()
        defer { pair.stopAll() }
        try pair.start(.watch)
        try pair.start(.phone)
        // A deadline per phase, not one for the section: on a loaded machine the windows before a phase
        // may take longer than a phase may (a --quick run under CI's parallel tests ran out of its 30 s
        // before the 64 in flight began).
        let sender = try BenchConnection.connect(pair.controlPath(.phone), retryUntil: context.phaseDeadline())

        for size in [64, 1024] {
            let deadline = context.phaseDeadline()
            let pad = String(repeating: "a", count: size)
            let stream = try BenchConnection.connect(pair.controlPath(.watch), retryUntil: deadline)
            _ = try stream.follow(channels: ["message"], deadline: deadline) { $0.set("autoReply", JSONValue.object(["p": .string(pad)])) }
            let app = MessageApp(stream: stream, answers: nil, pad: pad)
            context.progress("message: round trips, \(BaselineBench.sizeName(size)), auto-reply")
            _ = try roundTrips(sender: sender, pad: pad, count: context.counts.messageWarmup, app: app)
            let meter = try PairMeter(
                pair: pair, perf: context.binaries.perf, name: "message-rtt-\(size)B", countFsyncs: false,
                profiling: context.profiling)
            try meter.begin()
            let recorder = try roundTrips(sender: sender, pad: pad, count: context.counts.messageRoundTrips, app: app)
            let usage = try meter.end()
            recordRoundTrips(size: size, variant: "autoReply", label: "auto-reply", recorder.summary, judged: true)
            recordRelayFloorRatio(size: size, recorder.summary)
            let cpu = usage.totalCPU / Double(recorder.count) * 1e6
            context.report.add(
                "message", "message.rtt.\(size)B.autoReply.cpuPerMessage", "round trip, \(BaselineBench.sizeName(size)), auto-reply, daemon CPU per message",
                cpu, "us", target: size == 64 ? Target(comparison: "<=", limit: 80, text: "≤ 80 µs both daemons") : nil,
                ratio: relayCPURatio(size: size, cpu))
            recordCPUAboveNIOFloor(size: size, cpu)
            stream.shutdownWrite()
        }

        context.progress("message: 64 in flight")
        do {
            let deadline = context.phaseDeadline()
            let pad = String(repeating: "a", count: 64)
            let stream = try BenchConnection.connect(pair.controlPath(.watch), retryUntil: deadline)
            _ = try stream.follow(channels: ["message"], deadline: deadline) { $0.set("autoReply", JSONValue.object(["p": .string(pad)])) }
            let meter = try PairMeter(
                pair: pair, perf: context.binaries.perf, name: "message-inflight64", countFsyncs: false,
                profiling: context.profiling)
            try meter.begin()
            let count = try throughput(sender: sender, pad: pad, app: MessageApp(stream: stream, answers: nil, pad: pad))
            let usage = try meter.end()
            context.report.add(
                "message", "message.throughput.inflight64.64B.cpuPerMessage", "messages with reply, 64 in flight, daemon CPU per message",
                usage.totalCPU / Double(count) * 1e6, "us")
            stream.shutdownWrite()
        }

        context.progress("message: round trips, 64 B, the app answers")
        let deadline = context.phaseDeadline()
        let pad = String(repeating: "a", count: 64)
        let stream = try BenchConnection.connect(pair.controlPath(.watch), retryUntil: deadline)
        _ = try stream.follow(channels: ["message"], deadline: deadline) { $0.set("handle", ["dictionaryWithReply"]) }
        let answers = try BenchConnection.connect(pair.controlPath(.watch), retryUntil: deadline)
        let answering = MessageApp(stream: stream, answers: answers, pad: pad)
        _ = try roundTrips(sender: sender, pad: pad, count: context.counts.messageWarmup, app: answering)
        let recorder = try roundTrips(sender: sender, pad: pad, count: context.counts.messageAppAnswers, app: answering)
        recordRoundTrips(size: 64, variant: "appAnswers", label: "app answers", recorder.summary, judged: false)
        for failure in pair.stopAll() { throw failure }
    }

    /// `count` messages one after the other, and their round-trip times.
    private func roundTrips(
        sender: BenchConnection, pad: String, count: Int, app: MessageApp
    ) throws(BenchError) -> LatencyRecorder {
        var recorder = LatencyRecorder()
        let deadline = context.phaseDeadline()
        let connections = [sender] + app.connections
        for _ in 0..<count {
            let request = sender.request("send") { $0.set("message", JSONValue.object(["p": .string(pad)])) }
            let id = request.id
            let line = request.lineBytes
            let start = Monotonic.now()
            try sender.write(line)
            var reply: ControlResponse?
            while reply == nil {
                if let line = try sender.nextLine() {
                    if line.id == id { reply = line }
                    continue
                }
                let ready = try Poller.readable(connections, deadline: deadline)
                guard !ready.isEmpty else { throw BenchError("no reply to message \(id) in time") }
                for index in ready {
                    if index == 0 { try sender.fill() } else { try app.process() }
                }
                if sender.closed { throw BenchError("phoned closed the sender's connection") }
            }
            let end = Monotonic.now()
            guard reply?.ok == true else { throw BenchError("message failed: \(reply!.errorDescription)") }
            recorder.record(nanoseconds: end - start)
        }
        return recorder
    }

    private func recordRoundTrips(size: Int, variant: String, label: String, _ summary: LatencySummary, judged: Bool) {
        let sizeName = BaselineBench.sizeName(size)
        let base = context.baselines.pingPong[size]
        let ratios = LatencyRatios(summary, to: base, baselineName: "raw ping-pong \(sizeName)")
        let key = "message.rtt.\(size)B.\(variant)"
        context.report.addLatency(
            "message", key, "round trip, \(sizeName), \(label),", summary,
            p50Target: judged ? base.map(RoundTripTargets.p50) : nil, p99Target: judged ? base.map(RoundTripTargets.p99) : nil,
            p50Ratio: ratios.p50, p99Ratio: ratios.p99, p999Ratio: ratios.p999)
    }

    /// Informational, not targets: the auto-reply round trip's p50 over the epoll relay floor's and the
    /// NIO relay floor's with event lines, of the same run (two relaying processes that do no work, or
    /// only NIO's and the event lines' work), i.e. how much of the round trip is ours.
    private func recordRelayFloorRatio(size: Int, _ summary: LatencySummary) {
        let sizeName = BaselineBench.sizeName(size)
        for (loop, key, name) in [(RelayLoop.epoll, "vsEpollRelay", "epoll relay floor"), (.nioEvents, "vsNioEventsRelay", "NIO relay floor with event lines")] {
            let floor = context.baselines.relay[loop]?[size]
            context.report.add(
                "message", "message.rtt.\(size)B.autoReply.\(key).p50", "round trip, \(sizeName), auto-reply p50 / \(name) p50",
                floor.map { summary.p50 / $0.p50 }, "x", note: floor == nil ? "needs the baseline section in the same run" : nil)
        }
    }

    /// Informational: the daemons' CPU per round trip above the NIO relay floor with event lines (what
    /// NIO and the two event writes per daemon cost any design built on them), i.e. the daemons' own work.
    private func recordCPUAboveNIOFloor(size: Int, _ microseconds: Double) {
        let floor = context.baselines.relayCPU[.nioEvents]?[size]
        context.report.add(
            "message", "message.rtt.\(size)B.autoReply.cpuAboveNioEventsRelay",
            "round trip, \(BaselineBench.sizeName(size)), auto-reply, daemon CPU above the NIO relay floor with event lines",
            floor.map { microseconds - $0 }, "us", note: floor == nil ? "needs the baseline section in the same run" : nil)
    }

    /// The daemons' CPU per round trip over the epoll relay floor's (the kernel's share of the same four
    /// crossings, paid by any two processes relaying a message); nil without the baseline section.
    private func relayCPURatio(size: Int, _ microseconds: Double) -> Ratio? {
        guard let floor = context.baselines.relayCPU[.epoll]?[size], floor > 0 else { return nil }
        return Ratio(
            factor: microseconds / floor, baseline: "epoll relay floor's CPU per round trip, \(BaselineBench.sizeName(size))",
            baselineValue: floor)
    }

    /// Messages with replies, 64 in flight on one connection (the daemon's per-connection limit).
    @discardableResult
    private func throughput(sender: BenchConnection, pad: String, app: MessageApp) throws(BenchError) -> Int {
        let total = context.counts.messageThroughput
        let deadline = context.phaseDeadline()
        var inFlight = 0
        var sent = 0
        var done = 0
        let start = Monotonic.now()
        while done < total {
            while sent < total, inFlight < 64 {
                try sender.send(sender.request("send") { $0.set("message", JSONValue.object(["p": .string(pad)])) })
                sent += 1
                inFlight += 1
            }
            let ready = try Poller.readable([sender] + app.connections, deadline: deadline)
            guard !ready.isEmpty else { throw BenchError("timed out with \(done) of \(total) messages answered") }
            if ready.contains(where: { $0 > 0 }) { try app.process() }
            try sender.fill()
            while let line = try sender.nextLine() {
                guard line.ok == true else { throw BenchError("message failed: \(line.errorDescription)") }
                inFlight -= 1
                done += 1
            }
            if sender.closed { throw BenchError("phoned closed the sender's connection") }
        }
        let rate = Double(total) / Monotonic.seconds(start, Monotonic.now())
        let ratio = context.baselines.pipelinedRate.map {
            Ratio(factor: rate / $0, baseline: "raw ping-pong 64 in flight", baselineValue: $0)
        }
        context.report.add(
            "message", "message.throughput.inflight64.64B", "messages with reply, 64 B, 64 in flight", rate, "/s",
            target: Target(comparison: ">=", limit: 60_000, text: "≥ 60,000/s"), ratio: ratio)
        return total
    }
}
