import Foundation
import Testing
import WatchPairWire

/// `wcctl complication JSON` (docs/Complications.md) against the real daemons: refused while disabled and on
/// the watch, flagged on arrival while the budget lasts, `remaining` counting down, then plain userInfo.
@Suite("Complication transfers (processes)")
struct ComplicationProcessTests {
    @Test("disabled → 7001, watch side → 7008; enabled → arrives flagged, remaining counts down, at 0 it goes as plain userInfo")
    func complicationTransfers() async throws {
        try await PairSandbox.with(config: ["complications": .object(["dailyBudget": .integer(2)])]) { pair in
            try await pair.startReady(.phone)
            let watch = try await pair.startReady(.watch)
            let disabled = try await pair.wcctl(["complication", #"{"t":0}"#])
            expectWCError(disabled, 7001)
            #expect(disabled.stderr.contains("complication is not enabled"), "\(disabled)")
            expectWCError(try await pair.wcctl(["complication", #"{"t":0}"#], side: .watch), 7008)
            #expect(try await pair.status(.phone)["complicationTransfersRemaining"] == .integer(0))

            try await pair.ok(["complication", "enable"], side: .watch)
            try await pair.pollUntil("the phone to see the complication enabled") {
                try await pair.status(.phone)["complicationTransfersRemaining"] == .integer(2)
            }
            // The watch's device off: everything stays outstanding at the phone, where `transfers` lists it.
            #expect(await watch.stop() == 0, "\(pair.tail(.watch))")
            let first = try await pair.ok(["complication", #"{"t":1}"#])
            #expect(first.stdout.count == 2 && UUID(uuidString: first.stdout[0]) != nil, "\(first)")
            #expect(first.stdout.last == "remaining 1", "\(first)")
            _ = try await pair.transfer(#"{"t":2}"#)
            let file = pair.path("complication.json")
            try Data(#"{"t":3}"#.utf8).write(to: URL(fileURLWithPath: file))
            let second = try await pair.ok(["--json", "complication", "@" + file])
            #expect(second.object?["isCurrentComplicationInfo"] == .bool(true), "\(second)")
            #expect(second.object?["remaining"] == .integer(0), "\(second)")
            let third = try await pair.ok(["--json", "complication", #"{"t":4}"#])
            #expect(third.object?["isCurrentComplicationInfo"] == .bool(false), "at 0 it goes as plain userInfo: \(third)")
            #expect(try await pair.status(.phone)["complicationTransfersRemaining"] == .integer(0))

            let outstanding = try await pair.ok(["--json", "transfers"])  // one JSON object a line
            #expect(outstanding.json.map { $0["isCurrentComplicationInfo"] == .bool(true) } == [true, false, true, false], "\(outstanding)")

            try await pair.startReady(.watch)
            try await pair.ok(["wait", "drained", "--timeout", "20"])
            let received = try await pair.receivePending(.watch, channels: ["userInfo"])
            #expect(received.map { $0["userInfo"] } == (1...4).map { JSONValue.object(["t": .integer(Int64($0))]) }, "in order: \(received)")
            #expect(received.map { $0["isCurrentComplicationInfo"] == .bool(true) } == [true, false, true, false], "\(received)")
            let events = try await pair.ok(["events", "--event", "complicationQueued", "--event", "complicationBudgetExhausted"])
            #expect(events.stdout.count == 3, "two queued, one over budget: \(events)")
        }
    }
}
