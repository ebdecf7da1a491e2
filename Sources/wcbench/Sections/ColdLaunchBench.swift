import Foundation
import Glibc
import WatchPairWire

/// Section 6: a stopped receiver launched by socket activation, to the first transfer delivered.
///
/// `systemd-socket-activate -l watchd.sock --fdname=watchd watchd` holds watchd's link socket (as
/// `watchd.socket` would). With the listener ready, one `transfer` is written to phoned: phoned connects,
/// the connection launches watchd in the background, the app attaches as soon as watchd's control socket
/// answers, and the clock stops when the transfer reaches it. The comparison is the same launch of a
/// trivial program (wcbench's `_trivial-server`: accept, read one byte, answer one byte), timed from
/// connect to answer. Each launch is a new process; watchd is stopped (SIGTERM) between launches.
/// Then the same launches with a full event history (10,000 lines of the events watchd wrote, both
/// segments rewritten before each launch): an app that has run a while launches with that on disk.
struct ColdLaunchBench {
    let context: BenchContext

    func run() throws(BenchError) {
        guard let activate = context.binaries.socketActivate else {
            context.report.add(
                "coldLaunch", "coldLaunch.watchd.p50", "socket activation → first delivered p50", nil, "ms",
                note: "systemd-socket-activate is not installed")
            return
        }
        let trivial = try trivialLaunches(activate)
        let pair = try context.makePair()
        defer { pair.stopAll() }
        try pair.start(.watch)
        try pair.start(.phone)
        let deadline = context.phaseDeadline()
        let sender = try UserInfoSender(pair.controlPath(.phone), payloadBytes: UserInfoBench.payloadBytes, deadline: deadline)
        let finished = try FinishedApp.attach(pair.controlPath(.phone), deadline: deadline)
        do {
            // Link once, so the launches below are those of an installed, paired app.
            let app = try UserInfoApp.attach(pair.controlPath(.watch), deadline: deadline)
            _ = try TransferPump.run(sender: sender, app: app, finished: finished, count: 5, window: 1, deadline: deadline)
            try app.settleAcks(deadline: deadline)
            try finished.settle(count: sender.accepted, deadline: deadline)
        }
        try pair.waitUntilNothingOutstanding(deadline: deadline)
        try pair.stop(.watch)

        var fresh = Launches()
        for index in 0..<context.counts.coldLaunches {
            context.progress("cold launch: watchd \(index + 1)/\(context.counts.coldLaunches)")
            try launch(index, activate, pair: pair, sender: sender, finished: finished, into: &fresh)
        }
        // The same launch with a full history: 10,000 of the events watchd wrote above, in both segments.
        let history = try fullHistory(pair.statePath(.watch))
        var full = Launches()
        for index in 0..<context.counts.coldLaunches {
            context.progress("cold launch: watchd with 10,000 events of history \(index + 1)/\(context.counts.coldLaunches)")
            for name in ["events.1.jsonl", "events.jsonl"] {
                guard FileManager.default.createFile(atPath: pair.statePath(.watch) + "/" + name, contents: history) else {
                    throw BenchError("cannot write watchd's event history in \(pair.statePath(.watch))")
                }
            }
            try launch(fresh.delivered.summary.count + index, activate, pair: pair, sender: sender, finished: finished, into: &full)
        }
        let delivered = fresh.delivered
        let controlUp = fresh.controlUp

        let report = context.report
        let watchd = delivered.summary
        let base = trivial.summary
        report.add(
            "coldLaunch", "coldLaunch.watchd.p50", "watchd: socket activation → first transfer delivered p50", watchd.p50 / 1000, "ms",
            target: Target(comparison: "<", limit: 50, text: "< 50 ms"),
            ratio: Ratio(factor: watchd.p50 / base.p50, baseline: "trivial program p50", baselineValue: base.p50 / 1000))
        report.add("coldLaunch", "coldLaunch.watchd.max", "watchd: socket activation → first transfer delivered max", watchd.max / 1000, "ms")
        let withHistory = full.delivered.summary
        report.add(
            "coldLaunch", "coldLaunch.watchd.fullHistory.p50", "watchd, 10,000 events of history: socket activation → first transfer delivered p50",
            withHistory.p50 / 1000, "ms", ratio: Ratio(factor: withHistory.p50 / watchd.p50, baseline: "fresh watchd p50", baselineValue: watchd.p50 / 1000))
        report.add(
            "coldLaunch", "coldLaunch.watchd.fullHistory.max", "watchd, 10,000 events of history: socket activation → first transfer delivered max",
            withHistory.max / 1000, "ms", detail: true)
        report.add(
            "coldLaunch", "coldLaunch.watchd.controlUp.p50", "watchd: transfer sent → app attached p50",
            controlUp.summary.p50 / 1000, "ms", detail: true)
        report.add("coldLaunch", "coldLaunch.trivial.p50", "trivial program: socket activation → answer p50", base.p50 / 1000, "ms")
        report.add("coldLaunch", "coldLaunch.trivial.max", "trivial program: socket activation → answer max", base.max / 1000, "ms", detail: true)
        report.add("coldLaunch", "coldLaunch.launches", "launches of each", Double(watchd.count), "count", detail: true)
        context.noteStalls(of: finished, in: "coldLaunch")
        for failure in pair.stopAll() { throw failure }
    }

    /// The latencies of watchd's launches.
    private struct Launches {
        var delivered = LatencyRecorder()
        var controlUp = LatencyRecorder()
    }

    /// One socket activation of the stopped watchd, timed from the transfer sent to it delivered; stops watchd again.
    private func launch(
        _ index: Int, _ activate: String, pair: DaemonPair, sender: UserInfoSender, finished: FinishedApp, into launches: inout Launches
    ) throws(BenchError) {
        unlink(pair.linkPath(.watch))
        let log = "\(pair.directory)/activate-\(index).log"
        let child = try ChildProcess.spawn(
            activate,
            ["-l", pair.linkPath(.watch), "--fdname=watchd", "-E", "WATCHPAIR_CONFIG=\(pair.configPath(.watch))", context.binaries.watchd],
            name: "watchd (socket-activated)", environment: ChildProcess.environment(), output: log)
        pair.adopt(.watch, child)
        try waitListening(log: log, child: child)

        let start = Monotonic.now()
        let n = try sender.send()
        let app = try UserInfoApp.attach(pair.controlPath(.watch), deadline: context.phaseDeadline())
        launches.controlUp.record(nanoseconds: Monotonic.now() - start)
        let phaseDeadline = context.phaseDeadline()
        while !app.has(n) || sender.pending > 0 {
            let ready = try Poller.readable([sender.connection, app.connection], deadline: phaseDeadline)
            guard !ready.isEmpty else {
                // Which side stalled: the watch app's stream, or phoned's answer to the transfer.
                let missing = app.has(n) ? "phoned's response to the transfer (\(sender.pending) pending)" : "delivery to the watch app"
                throw BenchError("transfer n=\(n) after a socket activation: no \(missing)")
            }
            for index in ready {
                if index == 0 { try sender.process() } else { try app.process() }
            }
        }
        launches.delivered.record(nanoseconds: app.deliveredAt[n] - start)
        try app.settleAcks(deadline: phaseDeadline)
        try finished.settle(count: sender.accepted, deadline: phaseDeadline)
        app.connection.shutdownWrite()
        try pair.waitUntilNothingOutstanding(deadline: phaseDeadline)
        try pair.stop(.watch)
    }

    /// 5,000 lines of history (one segment), repeating the events watchd wrote in `state` so far.
    private func fullHistory(_ state: String) throws(BenchError) -> Data {
        guard let written = FileManager.default.contents(atPath: state + "/events.jsonl") else {
            throw BenchError("watchd wrote no event history in \(state)")
        }
        let lines = written.split(separator: UInt8(ascii: "\n")).filter { !$0.isEmpty }
        guard !lines.isEmpty else { throw BenchError("watchd's event history in \(state) is empty") }
        var segment = Data()
        for index in 0..<5000 {
            segment.append(lines[index % lines.count])
            segment.append(UInt8(ascii: "\n"))
        }
        return segment
    }

    /// Socket-activates the trivial program `coldLaunches` times.
    private func trivialLaunches(_ activate: String) throws(BenchError) -> LatencyRecorder {
        var recorder = LatencyRecorder()
        let path = "\(context.runDirectory)/trivial.sock"
        for index in 0..<context.counts.coldLaunches {
            context.progress("cold launch: trivial program \(index + 1)/\(context.counts.coldLaunches)")
            unlink(path)
            let log = "\(context.runDirectory)/trivial-\(index).log"
            let child = try ChildProcess.spawn(
                activate, ["-l", path, context.binaries.wcbench, "_trivial-server"],
                name: "trivial server", environment: ChildProcess.environment(), output: log)
            try waitListening(log: log, child: child)
            let start = Monotonic.now()
            let fd = try UnixSockets.connect(path)
            var byte: UInt8 = 0x21
            let answered = UnixSockets.writeExactly(fd, &byte, 1) && UnixSockets.readExactly(fd, &byte, 1)
            let end = Monotonic.now()
            close(fd)
            guard answered, let status = child.wait(seconds: 10), status == 0 else {
                child.stop()
                throw BenchError("the trivial program did not answer; see \(log)")
            }
            recorder.record(nanoseconds: end - start)
        }
        unlink(path)
        return recorder
    }

    /// Waits until systemd-socket-activate reports that it listens (it logs "Listening on ...").
    private func waitListening(log: String, child: ChildProcess) throws(BenchError) {
        let deadline = Monotonic.deadline(seconds: 10)
        while true {
            if let text = try? String(contentsOfFile: log, encoding: .utf8), text.contains("Listening on") { return }
            guard child.isRunning else { throw BenchError("systemd-socket-activate exited; see \(log)") }
            guard Monotonic.now() < deadline else { throw BenchError("systemd-socket-activate did not listen; see \(log)") }
            Monotonic.sleep(seconds: 0.001)
        }
    }
}
