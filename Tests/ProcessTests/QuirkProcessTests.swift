import Foundation
import Testing
import WatchPairWire

/// The quirks of real devices on the real daemons (docs/Quirks.md): set and cleared with `wcctl quirk`, or
/// on from the start by an environment variable; each injection a `quirkInjected` event in `wcctl events`.
@Suite("Quirks (processes)")
struct QuirkProcessTests {
    /// The `quirkInjected` events of `side`, as `wcctl --json events` prints them.
    static func injected(_ pair: PairSandbox, _ side: Side) async throws -> [JSONValue] {
        try await pair.ok(["--json", "events", "--event", "quirkInjected"], side: side).json
    }

    /// The quirk `name` in `wcctl --json quirk list` on `side`.
    static func listed(_ pair: PairSandbox, _ side: Side, _ name: String) async throws -> JSONValue? {
        let list = try await pair.ok(["--json", "quirk", "list"], side: side)
        return list.object?["quirks"]?.items?.first { $0["name"] == .string(name) }
    }

    @Test("wcctl quirk set duplicateUserInfo on the watch: the transfer is received twice; cleared, once")
    func setSeeClear() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let set = try await pair.ok(["quirk", "set", "duplicateUserInfo", "--count", "1", "--seed", "9"], side: .watch)
            #expect(set.stdout.contains { $0.hasPrefix("duplicateUserInfo") && $0.contains("set  p=1") }, "\(set)")
            let id = try await pair.transfer(#"{"n":1}"#)
            try await pair.ok(["wait", "drained", "--timeout", "20"])
            let received = try await pair.receivePending(.watch, channels: ["userInfo"])
            #expect(received.map { $0["userInfo"] } == [.object(["n": .integer(1)]), .object(["n": .integer(1)])], "twice: \(received)")
            let events = try await Self.injected(pair, .watch)
            #expect(events.count == 1 && events.first?["quirk"] == .string("duplicateUserInfo"), "\(events)")
            #expect(events.first?["transferId"] == .string(id), "\(events)")
            let status = try #require(try await Self.listed(pair, .watch, "duplicateUserInfo"))
            #expect(status["injections"] == .integer(1) && status["spent"] == .bool(true), "\(status)")

            let cleared = try await pair.ok(["--json", "quirk", "clear"], side: .watch)
            #expect(cleared.object?["quirks"]?.items?.allSatisfy { $0["set"] == .bool(false) } == true, "\(cleared)")
            _ = try await pair.transfer(#"{"n":2}"#)
            try await pair.ok(["wait", "drained", "--timeout", "20"])
            let again = try await pair.receivePending(.watch, channels: ["userInfo"])
            #expect(again.map { $0["userInfo"] } == [.object(["n": .integer(2)])], "once: \(again)")

            let unknown = try await pair.wcctl(["quirk", "set", "lateRepy"])
            #expect(unknown.status == 2 && unknown.stderr.contains("phantomReachability"), "\(unknown)")
        }
    }

    @Test("replyAndError on the phone: wcctl send prints the reply, then exits 112 for the error that followed it")
    func replyAndError() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            _ = try await pair.startHandler(["receive", "--follow", "--reply", #"{"pong":true}"#], side: .watch)
            try await pair.ok(["quirk", "set", "replyAndError", "--count", "1"])

            let hit = try await pair.wcctl(["send", #"{"ping":1}"#])
            #expect(hit.status == 112, "\(hit)")
            #expect(hit.stdout == [#"{"pong":true}"#], "the reply is printed first: \(hit)")
            #expect(hit.stderr.hasPrefix("wcctl: error 7012 (messageReplyTimedOut): after the reply"), "\(hit)")
            let json = try await pair.wcctl(["--json", "send", #"{"ping":2}"#])
            #expect(json.status == 0 && json.stdout == [#"{"reply":{"pong":true}}"#], "spent after one: \(json)")
            let events = try await Self.injected(pair, .phone)
            #expect(events.map { $0["quirk"] } == [.string("replyAndError")], "\(events)")
        }
    }

    @Test("WATCHPAIR_QUIRKS_PHANTOM_REACHABILITY_PROBABILITY=1 at start: reachable with no watch, sends fail 7007")
    func fromEnvironment() async throws {
        try await PairSandbox.with { pair in
            try await pair.startDaemon(.phone, environment: ["WATCHPAIR_QUIRKS_PHANTOM_REACHABILITY_PROBABILITY": "1"])
            try await pair.waitReady(.phone)
            #expect(try await pair.status(.phone)["reachable"] == .bool(true))
            expectWCError(try await pair.wcctl(["send", #"{"ping":1}"#]), 7007)
            let events = try await Self.injected(pair, .phone)
            #expect(events.map { $0["quirk"] } == [.string("phantomReachability")], "\(events)")
            let status = try #require(try await Self.listed(pair, .phone, "phantomReachability"))
            #expect(status["set"] == .bool(true) && status["count"] == .null && status["injections"] == .integer(1), "\(status)")
            try await pair.ok(["quirk", "clear", "phantomReachability"])
            #expect(try await pair.status(.phone)["reachable"] == .bool(false))
        }
    }
}

extension JSONValue {
    /// The elements of an array, nil for anything else.
    fileprivate var items: [JSONValue]? {
        if case .array(let items) = self { items } else { nil }
    }
}
