import Foundation
import Testing
import WatchPairWire

/// Each quirk's effect on the real daemons, as a user of `wcctl` sees it (docs/Quirks.md), beside
/// `QuirkProcessTests` (set, clear, configuration, `duplicateUserInfo`, `phantomReachability`,
/// `replyAndError`).
@Suite("Quirks' effects (processes)")
struct QuirkEffectProcessTests {
    /// The quirks injected on `side`, in order, from `wcctl events`.
    static func injected(_ pair: PairSandbox, _ side: Side) async throws -> [String] {
        try await QuirkProcessTests.injected(pair, side).compactMap { $0["quirk"]?.stringValue }
    }

    /// The events of `side` named `names`, in order, from `wcctl events`.
    static func events(_ pair: PairSandbox, _ side: Side, _ names: [String]) async throws -> [String] {
        try await pair.events(side, named: Set(names)).compactMap { $0["event"]?.stringValue }
    }

    // The sends wait 15 s for their reply: the quirk acts on a reply that arrives within the timeout,
    // which a loaded machine must still manage. Each such call then fails at that timeout: hence not longer.
    @Test("lostReply on the phone: the watch app ran its handler, the phone's send fails 7012 at its timeout")
    func lostReply() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let app = try await pair.startHandler(["receive", "--follow", "--reply", #"{"pong":true}"#], side: .watch)
            try await pair.ok(["quirk", "set", "lostReply", "--count", "1"])
            expectWCError(try await pair.wcctl(["send", "--timeout", "15", #"{"ping":1}"#]), 7012)
            #expect(await app.stdout.wait(timeout: .seconds(20)) { $0.count >= 1 }, "the handler ran: \(app.stdout.lines)")
            #expect(try await Self.injected(pair, .phone) == ["lostReply"])
            #expect(try await pair.ok(["send", #"{"ping":2}"#]).stdout == [#"{"pong":true}"#], "spent: the next reply arrives")
        }
    }

    @Test("lateReply on the phone: 7012 at the timeout, the late reply dropped, the next call answered by its own reply")
    func lateReply() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            _ = try await pair.startHandler(["receive", "--follow", "--reply", #"{"pong":true}"#], side: .watch)
            try await pair.ok(["quirk", "set", "lateReply", "--count", "1", "--delay", "500ms"])
            expectWCError(try await pair.wcctl(["send", "--timeout", "15", #"{"ping":1}"#]), 7012)
            #expect(try await Self.injected(pair, .phone) == ["lateReply"])
            let next = try await pair.ok(["--json", "send", #"{"ping":2}"#])
            #expect(next.stdout == [#"{"reply":{"pong":true}}"#], "one outcome per call: \(next)")
        }
    }

    @Test("asymmetricReachability on the phone from start: the watch reads the phone reachable and messages it; the phone reads not reachable")
    func asymmetricReachability() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.watch)
            try await pair.startDaemon(.phone, environment: ["WATCHPAIR_QUIRKS_ASYMMETRIC_REACHABILITY_PROBABILITY": "1"])
            try await pair.waitReady(.phone)
            _ = try await pair.startHandler(["receive", "--follow", "--reply", #"{"fromPhone":true}"#], side: .phone)
            try await pair.ok(["wait", "reachable", "--timeout", "20"], side: .watch)
            try await pair.pollUntil("the phone's injection") { try await Self.injected(pair, .phone) == ["asymmetricReachability"] }
            #expect(try await pair.status(.phone)["reachable"] == .bool(false))
            expectWCError(try await pair.wcctl(["send", #"{"ping":1}"#]), 7007)
            #expect(try await pair.ok(["send", #"{"ping":2}"#], side: .watch).stdout == [#"{"fromPhone":true}"#])
        }
    }

    @Test("stuckUserInfo on the phone: a transfer stays outstanding until the next one, then both arrive in order")
    func stuckUserInfo() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            try await pair.ok(["quirk", "set", "stuckUserInfo", "--count", "1"])
            _ = try await pair.transfer(#"{"n":1}"#)
            #expect(try await Self.injected(pair, .phone) == ["stuckUserInfo"])
            let stuck = try await pair.wcctl(["wait", "drained", "--timeout", "2"])
            #expect(stuck.status != 0, "the stuck transfer must not drain: \(stuck)")
            #expect(try await pair.status(.phone)["outstandingTransfers"] == .integer(1))
            _ = try await pair.transfer(#"{"n":2}"#)
            try await pair.ok(["wait", "drained", "--timeout", "20"])
            let received = try await pair.receivePending(.watch, channels: ["userInfo"])
            #expect(received.map { $0["userInfo"] } == [.object(["n": .integer(1)]), .object(["n": .integer(2)])], "\(received)")
        }
    }

    @Test("delayedDelivery on the watch: the transfer is acknowledged but held from the app; clearing the quirk hands it over")
    func delayedDelivery() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            try await pair.ok(["quirk", "set", "delayedDelivery", "--delay", "60s"], side: .watch)
            _ = try await pair.transfer(#"{"n":1}"#)
            try await pair.ok(["wait", "drained", "--timeout", "20"])
            try await pair.pollUntil("the watch's injection") { try await Self.injected(pair, .watch) == ["delayedDelivery"] }
            #expect(try await pair.receivePending(.watch, channels: ["userInfo"]).isEmpty, "held for the drawn delay")
            try await pair.ok(["quirk", "clear", "delayedDelivery"], side: .watch)
            let received = try await pair.receivePending(.watch, channels: ["userInfo"])
            #expect(received.map { $0["userInfo"] } == [.object(["n": .integer(1)])], "\(received)")
        }
    }

    @Test("contextReplay on the watch: after a restart the context it already took is delivered again")
    func contextReplay() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            let watch = try await pair.startReady(.watch)
            try await pair.ok(["context", "set", #"{"theme":"dark"}"#])
            try await pair.ok(["wait", "drained", "--timeout", "20"])
            let first = try await pair.receivePending(.watch, channels: ["applicationContext"])
            #expect(first.map { $0["context"] } == [.object(["theme": .string("dark")])], "\(first)")
            #expect(try await pair.receivePending(.watch, channels: ["applicationContext"]).isEmpty, "taken once")

            #expect(await watch.stop() == 0)
            try await pair.startDaemon(.watch, environment: ["WATCHPAIR_QUIRKS_CONTEXT_REPLAY_COUNT": "1"])
            try await pair.waitReady(.watch)
            let replayed = try await pair.receivePending(.watch, channels: ["applicationContext"])
            #expect(replayed.map { $0["context"] } == [.object(["theme": .string("dark")])], "\(replayed)")
            #expect(try await Self.injected(pair, .watch) == ["contextReplay"])
        }
    }

    @Test("installedFlapping on the phone from start: the watch app reads not installed, then installed with watchStateChanged")
    func installedFlapping() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.watch)
            try await pair.startDaemon(.phone, environment: ["WATCHPAIR_QUIRKS_INSTALLED_FLAPPING_DELAY": "1"])
            try await pair.waitReady(.phone)
            try await pair.pollUntil("the phone to read the watch app installed again") {
                try await pair.status(.phone)["peerInstalled"] == .bool(true)
            }
            #expect(try await Self.injected(pair, .phone) == ["installedFlapping"])
            let order = try await Self.events(pair, .phone, ["quirkInjected", "watchStateChanged"])
            #expect(order == ["quirkInjected", "watchStateChanged"], "hidden at launch, then one change back: \(order)")
        }
    }
}
