import Foundation
import WatchConnection
import WatchConnectionWCSession
import WatchConnectivity

/// The phone app of the layer section, which measures. Its lines on stdout are wcbench's protocol:
///
/// The phone side measures because its session sees the watch app stop at once (the link closes); the
/// watch's session keeps saying reachable after the phone app died until a link to it fails.
///
/// 1. raw `WCSession.sendMessage` round trips, then (after the `switch` message) the same payload as a
///    typed request through `WatchConnection.send`, then the wire form's JSON work of as many requests
///    alone (``wireWork(_:echo:)``): `roundTrips {"raw":[ns…],"layer":[ns…],"wire":[ns…]}`. Around each
///    measured loop, after its warm-up and after its last round trip, the app says `raw-warm`, `raw-done`,
///    `layer-warm`, `layer-done` and waits for `go`: wcbench reads both apps' CPU time there, so CPU per
///    round trip covers exactly each loop;
/// 2. `stop-peer`; wcbench kills the watch app and writes `peer-stopped` on stdin; `settings.queued`
///    requests are queued (`.messageOnly`, `.queued`, persisted): `start-peer`; wcbench starts the watch
///    app again; the connection (active mode) flushes on reachability:
///    `flush {"count":…,"failed":…,"seconds":…,"enqueueSeconds":…}` from the flush's start (its
///    `queueFlushed` event) to the last response;
/// 3. the same again, while wcbench starts the watch app with its storage directory this time, so each
///    answer is recorded on disk before it leaves.
@MainActor
final class LayerDriver {
    /// The message key that makes the responder switch to the layer.
    nonisolated static let switchKey = "wcbench-switch"

    /// What to measure.
    struct Settings: Sendable {
        var roundTrips: Int
        var warmup: Int
        var queued: Int
        var pad: String
    }

    private let settings: Settings
    private let clock = ContinuousClock()

    init(settings: Settings) {
        self.settings = settings
    }

    func run() async throws {
        let pinger = await MessagePinger(pad: settings.pad)
        let session = pinger.session
        _ = try await pinger.roundTrips(settings.warmup)
        try Self.gate("raw-warm")
        let raw = try await pinger.roundTrips(settings.roundTrips)
        try Self.gate("raw-done")
        _ = try await MessagePinger.send([Self.switchKey: true], on: session)

        // The queue is persisted (it must survive the app), in the app's state directory.
        let state = ProcessInfo.processInfo.environment["WATCHPAIR_STATE_DIR"] ?? FileManager.default.temporaryDirectory.path
        var configuration = WatchConnectionConfiguration(storageDirectory: URL(fileURLWithPath: state))
        configuration.queueCapacity = settings.queued
        let connection = WatchConnection(session: session, configuration: configuration)
        await connection.connect()
        try await connection.waitForConnection(timeout: .seconds(30))
        let echo = BenchEcho(p: settings.pad)
        for _ in 0..<settings.warmup { _ = try await connection.send(echo) }
        try Self.gate("layer-warm")
        var layer: [UInt64] = []
        for _ in 0..<settings.roundTrips {
            let start = clock.now
            _ = try await connection.send(echo)
            layer.append(MessagePinger.nanoseconds(start.duration(to: clock.now)))
        }
        try Self.gate("layer-done")
        _ = try Self.wireWork(settings.warmup, echo: echo)
        let wire = try Self.wireWork(settings.roundTrips, echo: echo)
        Self.say("roundTrips", ["raw": raw, "layer": layer, "wire": wire])

        // Only the flush phase listens to the connection's events: a subscriber is the app's choice and costs
        // a main-actor job per event, which the raw loop has no counterpart of. The first subscriber gets the
        // loops' events from the backlog, and ignores them.
        let events = EventLog(connection)
        try await flush(connection, events: events)
        try await flush(connection, events: events)
    }

    /// The wire form's work of `count` typed requests, alone, in this process: each is the JSON steps a
    /// request and its response take at least, done as the layer does them (the sender draws an id and
    /// encodes the request; the receiver reads its header and body and encodes the response; the sender
    /// reads the response's header and body), with no session. Every one of them lies on the round trip's
    /// path, so the raw round trip plus this is a floor of the layer's documented wire form as the layer
    /// writes and reads it. Each one's time in nanoseconds.
    static func wireWork(_ count: Int, echo: BenchEcho) throws -> [UInt64] {
        let clock = ContinuousClock()
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let start = clock.now
            let request = try WireEnvelope.encode(
                WireEnvelope.Header(kind: .request, id: .random(), type: BenchEcho.requestType, reply: true), body: echo)
            let received = try WireEnvelope.header(of: request)
            let body = try WireEnvelope.body(of: request, as: BenchEcho.self)
            let response = try WireEnvelope.encode(
                WireEnvelope.Header(kind: .response, id: received.id, type: received.type), body: body)
            guard try WireEnvelope.header(of: response).error == nil else {
                throw BenchAppError("the wire work's response is an error")
            }
            _ = try WireEnvelope.body(of: response, as: BenchEcho.self)
            samples.append(MessagePinger.nanoseconds(start.duration(to: clock.now)))
        }
        return samples
    }

    /// The queue phase: queue with the watch app off, flush when it is back.
    private func flush(_ connection: WatchConnection, events: EventLog) async throws {
        Self.say("stop-peer", [:])
        // Blocks the main actor, on purpose: nothing of this app may run until the watch app is gone.
        guard readLine() == "peer-stopped" else { throw BenchAppError("wcbench did not stop the watch app") }
        await events.waitUntil { !connection.isReachable }

        events.awaitNextFlush()
        let count = settings.queued
        let enqueueStart = clock.now
        let tally = Tally()
        let echo = BenchEcho(p: settings.pad)
        let allDone = AsyncStream.makeStream(of: Void.self)
        for _ in 0..<count {
            Task {
                do {
                    _ = try await connection.send(echo, strategy: .messageOnly, delivery: .queued)
                } catch {
                    tally.failed += 1
                    FileHandle.standardError.write(Data("queued request failed: \(error)\n".utf8))
                }
                tally.finished += 1
                if tally.finished == count { allDone.continuation.finish() }
            }
        }
        await events.waitUntil { connection.pendingRequestCount == count }
        let enqueueSeconds = enqueueStart.duration(to: clock.now) / .seconds(1)
        Self.say("start-peer", [:])
        for await _ in allDone.stream {}
        let end = clock.now
        guard let flushStart = events.flushStartedAt else { throw BenchAppError("the queue was never flushed") }
        Self.say("flush", [
            "count": count, "failed": tally.failed, "seconds": flushStart.duration(to: end) / .seconds(1),
            "enqueueSeconds": enqueueSeconds,
        ])
    }

    /// Says `word` and blocks the main actor until wcbench answers `go` (it reads both apps' CPU time
    /// meanwhile): nothing of the app's runs while the times are read.
    static func gate(_ word: String) throws {
        say(word, [:])
        guard readLine() == "go" else { throw BenchAppError("wcbench did not say go after \(word)") }
    }

    /// One protocol line on stdout.
    static func say(_ word: String, _ payload: [String: Any]) {
        var line = word
        if !payload.isEmpty, let data = try? JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]) {
            line += " " + String(decoding: data, as: UTF8.self)
        }
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// How the queued sends ended.
@MainActor
private final class Tally {
    var failed = 0
    var finished = 0
}

/// A failure of a layer app, reported on its stderr (the app's log).
struct BenchAppError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
