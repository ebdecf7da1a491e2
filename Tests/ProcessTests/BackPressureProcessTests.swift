import Foundation
import Synchronization
import Testing
import WatchPairWire

/// A watch whose inbox is full refuses transfers with 7015: back pressure, not a dead peer. The phone
/// keeps retrying (never "disconnected: timed out" because of refusals) and delivers everything once
/// the watch app takes what it has.
@Suite("Back pressure")
struct BackPressureProcessTests {
    @Test("refusals for a full inbox never time the phone out; everything arrives once the app makes room")
    func refusalsThenRoom() async throws {
        // Refusals counted as failed attempts would reach giveUpAfter (2 s of delays) within ~10 of them.
        let config: [String: JSONValue] = [
            "queues": .object(["inbox": .integer(5)]),
            "backoff": .object(["initial": .double(0.2), "maximum": .double(0.5), "giveUpAfter": .integer(2)]),
        ]
        try await PairSandbox.with(config: config) { pair in
            try await pair.startReady(.watch)
            try await pair.startReady(.phone)
            var sent: [String] = []
            for n in 1...15 { sent.append(try await pair.transfer(#"{"n":\#(n)}"#)) }
            try await pair.pollUntil("25 refusals by the watch", timeout: .seconds(60)) {
                let events = try await pair.ok(["--json", "events"], side: .watch)
                return events.json.filter { $0["event"]?.stringValue == "queueFull" }.count >= 25
            }
            #expect(try await pair.status(.phone)["link"] != .string("disconnected: timed out"))
            let ids = sent
            let received = Mutex<[String]>([])
            try await pair.pollUntil("all 15 transfers to reach the watch app") {
                let taken = try await pair.receivePending(.watch, channels: ["userInfo"]).compactMap { $0["transferId"]?.stringValue }
                return received.withLock { $0 += taken; return $0.count >= ids.count }
            }
            #expect(received.withLock { $0 } == ids, "every transfer once, in order")
        }
    }
}
