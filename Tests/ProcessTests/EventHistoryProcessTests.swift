import Foundation
import Testing
import WatchPairWire

/// `wcctl events` across restarts and both apps: the history file in each app's state directory.
@Suite("Event history")
struct EventHistoryProcessTests {
    @Test("events survive a kill -9 and a restart, and --both merges both apps by time")
    func historySurvivesARestart() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let id = try await pair.transfer(#"{"n":1}"#)
            try await pair.pollUntil("the transfer to finish") { try await pair.status(.phone)["outstandingTransfers"] == .integer(0) }
            let before = try await pair.ok(["--json", "events"], side: .watch).json
            #expect(before.contains { $0["event"] == .string("userInfoDelivered") && $0["transferId"] == .string(id) }, "\(before)")

            await pair.killDaemon(.watch)
            try await pair.startReady(.watch)
            let after = try await pair.ok(["--json", "events"], side: .watch).json
            // Everything from before the kill, in the same order, then the new launch.
            #expect(Array(after.prefix(before.count)) == before, "after: \(after)")
            #expect(after.filter { $0["event"] == .string("foregroundLaunch") }.count == 2, "\(after)")

            // Both apps, merged by time: timestamps never go backwards, and both roles are there.
            let both = try await pair.ok(["--json", "events", "--both"]).json
            let times = both.compactMap { $0["timestamp"]?.stringValue }
            #expect(times.count == both.count && times == times.sorted(), "\(times)")
            #expect(Set(both.compactMap { $0["role"]?.stringValue }) == ["phone", "watch"])
            #expect(times.allSatisfy { $0.count == 27 && $0.hasSuffix("Z") }, "fixed precision: \(times)")

            // Filters: one channel, the newest few, people's text.
            let userInfo = try await pair.ok(["--json", "events", "--both", "--channel", "userInfo"]).json
            #expect(!userInfo.isEmpty && userInfo.allSatisfy { $0["channel"] == .string("userInfo") }, "\(userInfo)")
            let newest = try await pair.ok(["--json", "events", "--both", "-n", "2"]).json
            #expect(newest == Array(both.suffix(2)), "\(newest)")
            let text = try await pair.ok(["events", "--both", "--event", "userInfoDelivered"])
            #expect(text.stdout.count == 1 && text.stdout[0].contains(" watch userInfoDelivered ") && text.stdout[0].contains(id), "\(text)")

            // An app that is not running is left out, with a warning.
            await pair.killDaemon(.watch)
            let phoneOnly = try await pair.wcctl(["--json", "events", "--both"])
            #expect(phoneOnly.status == 0 && phoneOnly.stderr.contains("watchd is not running"), "\(phoneOnly)")
            #expect(phoneOnly.json.allSatisfy { $0["role"] == .string("phone") } && !phoneOnly.json.isEmpty)
        }
    }

    @Test("events --both --follow: both apps' history, then both apps' new events as they happen")
    func followBoth() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let follow = try pair.startWcctl(["--json", "events", "--both", "--follow", "-n", "1", "--channel", "userInfo"], side: .phone)
            // Transfer only once the follow is attached to both apps: nothing of the userInfo channel
            // happened yet, so the history part prints nothing and every event below arrives live.
            for side in [Side.phone, .watch] { try await Self.waitForAttachedClients(pair, side: side) }
            let id = try await pair.transfer(#"{"n":1}"#)
            let seen = await follow.stdout.wait(timeout: .seconds(20)) { lines in
                let events = lines.compactMap(JSONValue.from)
                return events.contains { $0["event"] == .string("userInfoDelivered") && $0["role"] == .string("watch") }
                    && events.contains { $0["event"] == .string("userInfoFinished") && $0["role"] == .string("phone") }
            }
            #expect(seen, "\(follow.stdout.lines)\n\(follow.stderrText)")
            let events = follow.stdout.lines.compactMap(JSONValue.from)
            #expect(events.count == follow.stdout.lines.count && events.allSatisfy { $0["transferId"] == .string(id) }, "\(events)")
            follow.signal(SIGINT)
            #expect(await follow.waitForExit(timeout: .seconds(10)) == 0, "Ctrl-C ends a follow with 0: \(follow.stderrText)")
        }
    }

    @Test("after a restart, events --since and --follow --since show the history from T on, then live events, each once")
    func sinceAcrossARestart() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let first = try await pair.transfer(#"{"n":1}"#)
            try await pair.pollUntil("the transfer to finish") { try await pair.status(.phone)["outstandingTransfers"] == .integer(0) }
            let before = try await pair.ok(["--json", "events"], side: .watch).json
            await pair.killDaemon(.watch)
            try await pair.startReady(.watch)

            // The earlier run's events come back from the files as they were, before this run's.
            let all = try await pair.ok(["--json", "events"], side: .watch).json
            #expect(Array(all.prefix(before.count)) == before, "\(all)")
            let since = try #require(before[before.count / 2]["timestamp"]?.stringValue)
            let fromSince = try await pair.ok(["--json", "events", "--since", since], side: .watch).json
            #expect(fromSince == all.filter { ($0["timestamp"]?.stringValue ?? "") >= since }, "\(fromSince)")
            #expect(fromSince.contains { $0["transferId"] == .string(first) })

            let follow = try pair.startWcctl(["--json", "events", "--follow", "--since", since], side: .watch)
            try await Self.waitForAttachedClients(pair, side: .watch)
            let second = try await pair.transfer(#"{"n":2}"#)
            let seen = await follow.stdout.wait(timeout: .seconds(20)) { lines in
                lines.compactMap(JSONValue.from).contains { $0["event"] == .string("userInfoDelivered") && $0["transferId"] == .string(second) }
            }
            #expect(seen, "\(follow.stdout.lines)\n\(follow.stderrText)")
            let followed = follow.stdout.lines.compactMap(JSONValue.from)
            // The history from T exactly (no gap), then only new events (no duplicates).
            #expect(Array(followed.prefix(fromSince.count)) == fromSince, "\(followed)")
            let live = followed.dropFirst(fromSince.count)
            let lastTime = fromSince.last?["timestamp"]?.stringValue ?? ""
            #expect(!live.isEmpty && live.allSatisfy { ($0["timestamp"]?.stringValue ?? "") >= lastTime }, "\(live)")
            #expect(Set(follow.stdout.lines).count == follow.stdout.lines.count, "every event once: \(follow.stdout.lines)")
            follow.signal(SIGINT)
            #expect(await follow.waitForExit(timeout: .seconds(10)) == 0, "\(follow.stderrText)")
        }
    }

    /// Waits until `side`'s daemon has a control client attached besides the `status` asking (bounded).
    static func waitForAttachedClients(_ pair: PairSandbox, side: Side, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for _ in 0..<400 {
            let status = try await pair.ok(["--json", "status"], side: side)
            if (status.object?["controlClients"]?.integerValue ?? 0) >= 2 { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("no control client attached to \(side) within the bound", sourceLocation: sourceLocation)
    }

    @Test("the daemons' stderr event lines start with the fixed-precision UTC timestamp")
    func stderrLinesAreTimestamped() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            let log = try String(contentsOfFile: pair.stderrPath(.phone), encoding: .utf8)
            let line = try #require(log.split(separator: "\n").first { $0.contains("foregroundLaunch") })
            let stamp = String(line.prefix(27))
            #expect(EventTimestamp.parse(stamp) != nil && stamp.hasSuffix("Z"), "\(line)")
            #expect(line.dropFirst(27).hasPrefix(" phoned["), "\(line)")
        }
    }
}
