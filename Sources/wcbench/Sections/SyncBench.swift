import Foundation
import WatchPairWire

/// Section 9: keyed sync (docs/KeyedSync.md), phone → watch, through the control operations `wcctl sync` uses.
///
/// - Propagation: `syncSet` of one key on phoned, one change at a time, each waited for until watchd's
///   `events` stream says the watch holds that revision (`syncReceived`/`syncUnknownKey`, written after
///   the watch's ledger is on disk). Both ledgers are fsynced on the way, so the machine's limits are a
///   raw ping-pong and a raw fdatasync of the same run.
/// - Snapshot on launch: the watch app has registered 100 keys (`phoneWithWatchSync`) and is stopped;
///   the phone changes all 100; watchd is started. "Up" is watchd's own `sessionActivated` event (its
///   session is active: the moment an app on Apple's API can first send); the clock stops at the
///   timestamp of the event of the last of the 100 keys held. Both timestamps are watchd's (µs), so the
///   time wcbench takes to attach does not count; it follows watchd's events from the spawn on (`since`),
///   so watchd does not replay its history (up to 10,000 events) to wcbench inside the window. Spawn →
///   held, on wcbench's clock, is kept as a detail.
struct SyncBench {
    let context: BenchContext
    /// The keys of the launch snapshot.
    static let snapshotKeys = (0..<100).map { "key\(String(format: "%03d", $0))" }

    /// Changes timed one by one, launches timed, and changes before timing starts.
    private var propagations: Int { context.quick ? 30 : 1_000 }
    private var launches: Int { context.quick ? 2 : 20 }
    private let warmup = 20

    func run() throws(BenchError) {
        let deadline = context.phaseDeadline()
        let (pair, phone) = try context.startedPair(deadline: deadline)
        defer { pair.stopAll() }

        context.progress("sync: set on the phone → held by the watch, one at a time")
        let watch = try SyncEventApp(pair.controlPath(.watch), deadline: deadline)
        var propagation = LatencyRecorder()
        for n in 0..<(warmup + propagations) {
            let start = Monotonic.now()
            let revision = try set(phone, "latency", .integer(Int64(n)), deadline: deadline)
            try watch.wait(for: ["latency": revision], deadline: deadline)
            if n >= warmup { propagation.record(nanoseconds: watch.readAt["latency"]! - start) }
        }
        watch.connection.shutdownWrite()
        let launch = try launchSnapshots(pair, phone: phone)
        report(propagation.summary, launch)
        for failure in pair.stopAll() { throw failure }
    }

    /// `syncSet` of `key` (registered `phoneWithWatchSync` the first time); the revision it got.
    private func set(
        _ connection: BenchConnection, _ key: String, _ value: JSONValue, deadline: UInt64
    ) throws(BenchError) -> String {
        let request = connection.request("syncSet") {
            $0.set("key", key)
            $0.set("value", value)
            $0.set("availability", "phoneWithWatchSync")
        }
        guard let revision = try connection.call(request, deadline: deadline).result?["revision"]?.stringValue else {
            throw BenchError("syncSet of \(key) returned no revision")
        }
        return revision
    }

    /// The launches: per launch, the time from watchd's `sessionActivated` to the last of the 100 keys
    /// held (µs, watchd's clock), and from the spawn to wcbench reading it (ns, wcbench's clock).
    private func launchSnapshots(_ pair: DaemonPair, phone: BenchConnection) throws(BenchError) -> Launches {
        context.progress("sync: registering \(Self.snapshotKeys.count) keys on the watch")
        let setupDeadline = context.phaseDeadline()
        let registrar = try BenchConnection.connect(pair.controlPath(.watch), retryUntil: setupDeadline)
        for key in Self.snapshotKeys { _ = try set(registrar, key, .string("watch default"), deadline: setupDeadline) }
        registrar.shutdownWrite()

        var afterUp = LatencyRecorder()
        var fromSpawn = LatencyRecorder()
        var floor = LatencyRecorder()
        let pad = JSONValue.string(String(repeating: "x", count: 32))
        for index in 0..<launches {
            context.progress("sync: snapshot of \(Self.snapshotKeys.count) keys on watch launch \(index + 1)/\(launches)")
            let deadline = context.phaseDeadline()
            try pair.stop(.watch)
            var expected: [String: String] = [:]
            for (n, key) in Self.snapshotKeys.enumerated() {
                let value = JSONValue.object(["launch": .integer(Int64(index)), "n": .integer(Int64(n)), "p": pad])
                expected[key] = try set(phone, key, value, deadline: deadline)
            }
            let spawnedAt = EventTimestamp.microseconds(Date())
            let start = Monotonic.now()
            _ = try pair.spawn(.watch)
            let watch = try SyncEventApp(pair.controlPath(.watch), since: spawnedAt, deadline: deadline)
            try watch.wait(for: expected, deadline: deadline)
            guard let up = watch.launchedAt, up >= spawnedAt else {
                throw BenchError("watchd logged no sessionActivated for this launch")
            }
            let held = expected.keys.compactMap { watch.heldAt[$0] }.max() ?? up
            afterUp.record(nanoseconds: UInt64(max(held - up, 0)) * 1000)
            fromSpawn.record(nanoseconds: expected.keys.compactMap { watch.readAt[$0] }.max()! - start)
            watch.connection.shutdownWrite()
            floor.record(nanoseconds: try launchFloor(index))
        }
        return Launches(afterUp: afterUp, fromSpawn: fromSpawn, floor: floor)
    }

    /// Per launch: after up (µs → ns, watchd's clock), from the spawn (wcbench's clock), and the floor.
    struct Launches {
        var afterUp: LatencyRecorder
        var fromSpawn: LatencyRecorder
        var floor: LatencyRecorder
    }

    private func report(_ propagation: LatencySummary, _ launch: Launches) {
        let report = context.report
        let ping = context.baselines.pingPong[64]
        report.addLatency(
            "sync", "sync.propagation", "sync set on the phone → held by the watch,", propagation,
            p50Ratio: ping.map { Ratio(factor: propagation.p50 / $0.p50, baseline: "raw ping-pong 64 B p50", baselineValue: $0.p50) },
            p99Ratio: ping.map { Ratio(factor: propagation.p99 / $0.p99, baseline: "raw ping-pong 64 B p99", baselineValue: $0.p99) })
        let fsyncMs = context.baselines.fdatasyncRate.map { 1000 / $0 }
        let afterUp = launch.afterUp.summary
        report.add(
            "sync", "sync.launchSnapshot.p50", "\(Self.snapshotKeys.count) keys held, after the watch app is up p50",
            afterUp.p50 / 1000, "ms", target: Target(comparison: "<", limit: 50, text: "< 50 ms"),
            ratio: fsyncMs.map { Ratio(factor: afterUp.p50 / 1000 / $0, baseline: "one raw fdatasync", baselineValue: $0) })
        report.add(
            "sync", "sync.launchSnapshot.max", "\(Self.snapshotKeys.count) keys held, after the watch app is up max",
            afterUp.max / 1000, "ms", target: Target(comparison: "<", limit: 50, text: "< 50 ms"))
        let floor = launch.floor.summary
        report.add(
            "sync", "sync.launchSnapshot.floor.p50", "the same snapshot taken in durably by a fresh process (floor) p50",
            floor.p50 / 1000, "ms")
        report.add(
            "sync", "sync.launchSnapshot.floor.max", "the same snapshot taken in durably by a fresh process (floor) max",
            floor.max / 1000, "ms")
        report.add(
            "sync", "sync.launchSnapshot.fromSpawn.p50", "\(Self.snapshotKeys.count) keys held, from watchd's spawn p50",
            launch.fromSpawn.summary.p50 / 1000, "ms", detail: true)
        report.add("sync", "sync.launchSnapshot.launches", "watch launches timed", Double(afterUp.count), "count", detail: true)
    }
}
