import Foundation
import Testing
import WatchPairWire

/// `wcctl queue`, `queue cancel`, `health`, `connect`, `disconnect` over the real daemons: the
/// reliability layer's persisted queue survives kill -9 of the app and flushes once in active mode.
@Suite("the daemons' request queue, health and connection mode")
struct RequestQueueProcessTests {
    @Test("a queued request survives kill -9 of the watch app and runs once at the phone after connect")
    func survivesKill() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.watch)
            let waiting = try pair.startWcctl(["request", "Ping", #"{"n":1}"#, "--strategy", "messageOnly"], side: .watch)
            try await pair.waitQueued(.watch, count: 1)
            let queued = try await pair.ok(["queue"], side: .watch).json
            let requestId = try #require(queued.first?["requestId"]?.stringValue)
            #expect(queued.first?["type"] == .string("Ping") && queued.first?["strategy"] == .string("messageOnly"))
            let health = try #require(try await pair.ok(["health"], side: .watch).object)
            #expect(health["connectionMode"] == .string("passive") && health["pendingRequests"] == .integer(1), "\(health)")

            // The layer's events are the daemon's: in `wcctl events` (and journald) with their MESSAGE_ID.
            let events = try await pair.ok(["--json", "events"], side: .watch).json
            let queuedEvent = events.first { $0["event"] == .string("requestQueued") }
            #expect(queuedEvent?["requestType"] == .string("Ping"), "\(events)")
            #expect(queuedEvent?["messageId"] == .string("5e1d0a3c6f7b4b2a9c1e8d7f60a1b21b"), "\(String(describing: queuedEvent))")

            await pair.killDaemon(.watch)
            _ = await waiting.waitForExit(timeout: .seconds(20))
            try await pair.startReady(.watch)
            let restored = try await pair.ok(["queue"], side: .watch).json
            #expect(restored.map { $0["requestId"]?.stringValue } == [requestId], "the queue after the restart: \(restored)")

            try await pair.startReady(.phone)
            let app = try await pair.startHandler(["serve", "Ping", "--reply", #"{"pong":1}"#], side: .phone)
            let mode = try await pair.ok(["connect"], side: .watch)
            #expect(mode.stdout == [#"{"connectionMode":"active"}"#], "\(mode)")
            try await pair.waitQueued(.watch, count: 0)
            #expect(await app.stdout.wait(timeout: .seconds(20)) { !$0.isEmpty })
            #expect(app.stdout.lines == [#"{"body":{"n":1},"type":"Ping"}"#], "the handler ran for \(app.stdout.lines)")
            let flushed = try await pair.ok(["--json", "events"], side: .watch).json
            #expect(flushed.contains { $0["event"] == .string("queueFlushed") }, "\(flushed)")
        }
    }

    @Test("queue cancel --all and disconnect end queued requests; bad ids are usage errors")
    func cancel() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.watch)
            let first = try pair.startWcctl(["request", "Ping", "{}", "--strategy", "messageOnly"], side: .watch)
            try await pair.waitQueued(.watch, count: 1)
            let cancelled = try await pair.ok(["queue", "cancel", "--all"], side: .watch)
            #expect(cancelled.stdout == [#"{"cancelled":1}"#], "\(cancelled)")
            #expect(await first.waitForExit(timeout: .seconds(20)) == 101, "a cancelled request ends with 7001: \(first.stderrText)")

            let second = try pair.startWcctl(["request", "Ping", "{}", "--strategy", "messageOnly"], side: .watch)
            try await pair.waitQueued(.watch, count: 1)
            #expect(try await pair.ok(["disconnect"], side: .watch).stdout == [#"{"connectionMode":"passive"}"#])
            #expect(await second.waitForExit(timeout: .seconds(20)) == 101, "\(second.stderrText)")

            #expect(try await pair.wcctl(["queue", "cancel", "not-a-uuid"], side: .watch).status == 2)
            #expect(try await pair.wcctl(["queue", "cancel"], side: .watch).status == 2)
        }
    }
}

extension PairSandbox {
    /// Waits (bounded: ``pollUntil(_:process:timeout:_:)``) until the side's queue holds `count` requests.
    func waitQueued(_ side: Side, count: Int) async throws {
        try await pollUntil("\(count) queued requests at \(side.daemon)") {
            let run = try await self.wcctl(["queue"], side: side)
            return run.status == 0 && run.stdout.count == count
        }
    }
}
