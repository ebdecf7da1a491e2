import Testing
import WatchPairControlClient
import WatchPairWire

/// `events` with `follow` and `since`: only the kept events from that moment on are replayed.
extension DaemonPairTests {
    @Test("events --follow with since replays the kept events from then on only; a bad since is 7008")
    func eventsFollowSince() async throws {
        try await withDaemonPair { pair in
            try await AsyncControlClientConnection.withConnection(to: pair.phoneControl) { app in
                let kept = try await app.call(["id": 1, "op": "events"])["result"]?["events"]?.arrayValue ?? []
                let times = kept.compactMap { $0["timestamp"]?.stringValue }
                #expect(times.count == kept.count && kept.count >= 2, "the launch's events: \(kept)")
                let newest = try #require(times.last)

                // From the newest kept event on: it, and whatever came after the list above.
                let fromNewest = try await app.call(["id": 2, "op": "events", "follow": true, "since": .string(newest)])
                let replayed = try #require(fromNewest["result"]?["history"]?.integerValue)
                #expect(replayed >= 1 && replayed < Int64(kept.count), "history \(replayed) of \(kept.count)")
                let first = try await app.event("diagnostic")
                #expect(first["data"]?["timestamp"]?.stringValue.map { $0 >= newest } == true, "\(first)")

                // Since long ago: everything kept, as without since.
                let all = try await app.call(["id": 3, "op": "events", "follow": true, "since": "2000-01-01T00:00:00Z"])
                #expect(all["result"]?["history"]?.integerValue ?? 0 >= Int64(kept.count))

                let bad = try await app.call(["id": 4, "op": "events", "follow": true, "since": "yesterday"])
                #expect(bad["error"]?["code"] == .integer(7008), "\(bad)")
            }
        }
    }
}
