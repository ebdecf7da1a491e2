import WatchPairWire

/// Section 4: applicationContext, phone → watch.
///
/// The receiving app is a `receive` stream on watchd for `applicationContext`, acknowledging each
/// version it sees. Each update is `{"n": n, "p": 64 × "x"}`, all different.
/// - Propagation: one update at a time, each waited for until the app holds it: the time from writing
///   `contextSet` to the app's event.
/// - Burst: updates with 64 in flight: the rate phoned accepts them, and how long after the last one was
///   accepted the app holds the newest (intermediate values may be skipped: last wins).
struct ContextBench {
    let context: BenchContext

    func run() throws(BenchError) {
        let pair = try context.makePair()
        defer { pair.stopAll() }
        try pair.start(.watch)
        try pair.start(.phone)
        let deadline = context.phaseDeadline()
        let sender = try BenchConnection.connect(pair.controlPath(.phone), retryUntil: deadline)
        let app = try ContextApp(pair.controlPath(.watch), deadline: deadline)
        let pad = String(repeating: "x", count: 64)
        var n = 0

        context.progress("applicationContext: propagation, one at a time")
        var propagation = LatencyRecorder()
        for index in 0..<(context.counts.contextPropagation + 20) {
            n += 1
            let start = Monotonic.now()
            try sender.call(sender.request("contextSet") { $0.set("context", JSONValue.object(["n": .integer(Int64(n)), "p": .string(pad)])) }, deadline: deadline)
            try app.wait(for: n, deadline: deadline)
            if index >= 20 { propagation.record(nanoseconds: app.heldAt - start) }
        }
        context.report.addLatency(
            "applicationContext", "context.propagation", "update → receiver holds it,", propagation.summary)

        context.progress("applicationContext: burst, 64 in flight")
        // A phase of its own, with its own deadline (as the message section's phases).
        let burstDeadline = context.phaseDeadline()
        let total = context.counts.contextBurst
        var inFlight: [Int64: Int] = [:]
        var newest: (version: Int64, n: Int) = (0, 0)
        var sent = 0
        var accepted = 0
        let seenBefore = app.eventsSeen
        let start = Monotonic.now()
        var lastAccepted = start
        while accepted < total {
            while sent < total, inFlight.count < 64 {
                n += 1
                sent += 1
                let request = sender.request("contextSet") { $0.set("context", JSONValue.object(["n": .integer(Int64(n)), "p": .string(pad)])) }
                inFlight[request.id] = n
                try sender.send(request)
            }
            let ready = try Poller.readable([sender, app.connection], deadline: burstDeadline)
            guard !ready.isEmpty else { throw BenchError("timed out with \(accepted) of \(total) updates accepted") }
            if ready.contains(1) { try app.process() }
            try sender.fill()
            while let line = try sender.nextLine() {
                guard let id = line.id, let updated = inFlight.removeValue(forKey: id) else { continue }
                guard line.ok == true else { throw BenchError("contextSet failed: \(line.errorDescription)") }
                accepted += 1
                lastAccepted = Monotonic.now()
                // The newest value is the one the daemon numbered last, not the one written last.
                if let version = line.result?["version"]?.integerValue, version > newest.version { newest = (version, updated) }
            }
            if sender.closed { throw BenchError("phoned closed the sender's connection") }
        }
        try app.wait(for: newest.n, deadline: burstDeadline)
        let rate = Double(total) / Monotonic.seconds(start, lastAccepted)
        let report = context.report
        report.add("applicationContext", "context.burst.rate", "updates accepted, 64 in flight", rate, "/s")
        report.add(
            "applicationContext", "context.burst.newestAfterLastAccept", "newest held, after the last update was accepted",
            Double(app.heldAt > lastAccepted ? app.heldAt - lastAccepted : 0) / 1e6, "ms")
        report.add(
            "applicationContext", "context.burst.newestAfterStart", "newest held, from the first update of the burst",
            Monotonic.seconds(start, app.heldAt) * 1000, "ms", detail: true)
        report.add(
            "applicationContext", "context.burst.valuesSeen", "values the receiving app saw during the burst",
            Double(app.eventsSeen - seenBefore), "count", detail: true)
        for failure in pair.stopAll() { throw failure }
    }
}
