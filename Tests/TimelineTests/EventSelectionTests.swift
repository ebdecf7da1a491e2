import Testing
import WatchPairTimeline
import WatchPairWire

@Suite("Event selection and merge")
struct EventSelectionTests {
    static func event(_ timestamp: String, _ role: Role, _ kind: String, channel: String? = nil) throws -> SessionEvent {
        var object: [String: JSONValue] = ["timestamp": .string(timestamp), "role": .string(role.rawValue), "event": .string(kind)]
        object["channel"] = channel.map(JSONValue.string)
        return try SessionEvent(json: .object(object))
    }

    @Test func bothAppsMergeByTimeNotByText() throws {
        // In text order the +01:00 time sorts after the Z times; in time it is the earliest.
        let phone = [
            try Self.event("2026-11-23T22:00:00.4Z", .phone, "a"), try Self.event("2026-11-23T22:00:00.9Z", .phone, "c"),
        ]
        let watch = [try Self.event("2026-11-23T22:00:00.6Z", .watch, "b"), try Self.event("2026-11-23T22:59:59+01:00", .watch, "first")]
        #expect(EventSelection.merge([phone, watch]).map(\.kind) == ["first", "a", "b", "c"])
    }

    @Test func equalTimesPutThePhoneFirstAndKeepEachAppsOrder() throws {
        let t = "2026-11-23T22:00:00.000001Z"
        let phone = [try Self.event(t, .phone, "p1"), try Self.event(t, .phone, "p2")]
        let watch = [try Self.event(t, .watch, "w1")]
        #expect(EventSelection.merge([watch, phone]).map(\.kind) == ["p1", "p2", "w1"])
    }

    @Test func filtersCombineAndLastKeepsTheNewest() throws {
        let events = [
            try Self.event("2026-11-23T22:00:01Z", .phone, "messageSent", channel: "message"),
            try Self.event("2026-11-23T22:00:02Z", .watch, "userInfoDelivered", channel: "userInfo"),
            try Self.event("2026-11-23T22:00:03Z", .phone, "messageFailed", channel: "message"),
            try Self.event("2026-11-23T22:00:04Z", .phone, "idleExit"),
        ]
        let since = EventTimestamp.parse("2026-11-23T22:00:02Z")
        #expect(EventSelection(since: since).apply(events).map(\.kind) == ["userInfoDelivered", "messageFailed", "idleExit"])
        #expect(EventSelection(channels: ["message"]).apply(events).map(\.kind) == ["messageSent", "messageFailed"])
        #expect(EventSelection(kinds: ["idleExit", "messageSent"]).apply(events).map(\.kind) == ["messageSent", "idleExit"])
        #expect(EventSelection(channels: ["message"], last: 1).apply(events).map(\.kind) == ["messageFailed"])
        #expect(EventSelection(last: 0).apply(events).isEmpty)
    }

    @Test(arguments: ["timestamp", "role", "event"])
    func anEventNeedsItsTimeAppAndName(_ missing: String) {
        var object: [String: JSONValue] = ["timestamp": .string("2026-11-23T22:00:01Z"), "role": .string("watch"), "event": .string("x")]
        object[missing] = nil
        #expect(throws: SessionEventError.self) { try SessionEvent(json: .object(object)) }
    }

    @Test func theTextLineHasTheFixedTimestampAndTheFields() {
        let event = SessionEvent(
            time: 1_795_000_000_000_001, role: .watch, kind: "userInfoDelivered", message: "userInfo 3 received", transferId: "T", seq: 3)
        #expect(event.textLine == "2026-11-18T11:06:40.000001Z watch userInfoDelivered    userInfo 3 received  seq=3 transfer=T")
    }
}
