import Foundation
import Testing
import WatchPairWire

/// docs/Watches.md with the real daemons: `phoned` listing two watches, each its own `watchd` with its own
/// store, switched with `wcctl switch`.
@Suite("A phone with two watches, as processes")
struct WatchSwitchProcessTests {
    /// Writes the config of watch `name` (the watch of pair `name`, in `dir/name/`) and starts its watchd.
    @discardableResult
    static func startWatch(_ name: String, in pair: PairSandbox) throws -> ChildProcess {
        let directory = pair.path(name)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let config: JSONValue = .object([
            "role": .string("watch"), "pairId": .string(name),
            "paths": .object([
                "link": .string(directory + "/watchd.sock"), "peerLink": .string(directory + "/phoned.sock"),
                "control": .string(directory + "/watchd.ctl"), "peerControl": .string(pair.controlPath(.phone)),
                "state": .string(directory + "/watchd"), "peerState": .string(directory + "/phoned"),
            ]),
            "log": .object(["destination": .string("stderr")]),
            "backoff": .object(["initial": .double(0.05), "maximum": .double(0.5)]),
        ])
        let path = pair.path("watchd-\(name).json")
        try Data((config.canonicalText + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let log = pair.path("watchd-\(name).err")
        return try pair.spawn(
            name: "watchd \(name)", executable: pair.bin + "/watchd", arguments: ["--config", path], stdout: .file(log), stderr: .file(log))
    }

    /// `wcctl --json watches`, parsed.
    static func watches(_ pair: PairSandbox) async throws -> JSONValue {
        try #require(try await pair.ok(["--json", "watches"]).object)
    }

    /// Whether the phone runs bound to `name`, activated.
    static func bound(to name: String, _ pair: PairSandbox) async -> Bool {
        guard let run = try? await pair.wcctl(["--json", "watches"]), run.status == 0, let list = run.object else { return false }
        let row = list["watches"]?.arrayValue?.first { $0["name"] == .string(name) }
        return list["session"] == .string("activated") && row?["bound"] == .bool(true)
    }

    /// The userInfo dictionaries watch `name`'s app takes now (`wcctl receive`).
    static func received(by name: String, _ pair: PairSandbox) async throws -> [JSONValue] {
        let run = try await pair.ok(["--control", pair.path("\(name)/watchd.ctl"), "receive", "--channel", "userInfo"])
        return run.json.compactMap { $0["userInfo"] }
    }

    /// What watch `name`'s app takes first, polling (a readiness poll, bounded) until something arrived.
    static func firstReceived(by name: String, _ pair: PairSandbox) async throws -> [JSONValue] {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            let taken = try await received(by: name, pair)
            if !taken.isEmpty { return taken }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw SandboxError("watch \(name) received nothing within 20 s\n\(pair.diagnostics())")
    }

    @Test("queued for watch a while it is off, switched to b and back: a gets its queue, b only its own")
    func switchAndBack() async throws {
        try await PairSandbox.with { pair in
            try pair.configure(.phone, ["watches": .array([.string("a"), .string("b")])])
            try await pair.startReady(.phone)
            // Watch a is off: what the phone queues for it waits for it.
            try await pair.transfer(#"{"for":"a"}"#)
            var list = try await Self.watches(pair)
            #expect(list["active"] == .string("a"))
            #expect(list["watches"]?.arrayValue?.first?["queued"]?["userInfo"] == .integer(1))

            try Self.startWatch("b", in: pair)
            let switched = try await pair.ok(["--json", "switch", "b"])
            #expect(switched.object?["switching"] == .bool(true))
            // a's link is gone: the phone deactivates and starts again, bound to b.
            try await pair.pollUntil("the phone bound to watch b") { await Self.bound(to: "b", pair) }
            try await pair.transfer(#"{"for":"b"}"#)
            let atB = try await Self.firstReceived(by: "b", pair)
            #expect(atB == [.object(["for": .string("b")])])
            list = try await Self.watches(pair)
            #expect(list["watches"]?.arrayValue?.first?["queued"]?["userInfo"] == .integer(1))

            // Back to a, now on: b is drained, and a gets what waited for it.
            try Self.startWatch("a", in: pair)
            try await pair.ok(["switch", "a"])
            try await pair.pollUntil("the phone bound to watch a") { await Self.bound(to: "a", pair) }
            let atA = try await Self.firstReceived(by: "a", pair)
            #expect(atA == [.object(["for": .string("a")])])
            #expect(try await Self.received(by: "b", pair).isEmpty)
            #expect(pair.occurrences(of: "watchSwitched", in: .phone) == 2)

            // Clear errors: an unknown watch, the active watch unpaired.
            expectWCError(try await pair.wcctl(["switch", "c"]), 7008)
            expectWCError(try await pair.wcctl(["unpair", "a"]), 7008)
            let unpaired = try await pair.ok(["--json", "unpair", "b"])
            #expect(unpaired.object?["dropped"]?["userInfo"] == .integer(0))
            expectWCError(try await pair.wcctl(["switch", "b"]), 7005)
            #expect(pair.occurrences(of: "watchUnpaired", in: .phone) == 1)
        }
    }

    @Test("unpair drops what was queued for the watch and says how much; pair brings it back empty")
    func unpairDrops() async throws {
        try await PairSandbox.with { pair in
            try pair.configure(.phone, ["watches": .array([.string("a"), .string("b")])])
            try await pair.startReady(.phone)
            try await pair.transfer(#"{"n":1}"#)
            try await pair.transfer(#"{"n":2}"#)
            try await pair.ok(["context", "set", #"{"list":"milk"}"#])
            try await pair.ok(["switch", "b"])
            try await pair.pollUntil("the phone bound to watch b") { await Self.bound(to: "b", pair) }
            let unpaired = try await pair.ok(["--json", "unpair", "a"])
            #expect(unpaired.object?["dropped"] == .object(["userInfo": .integer(2), "files": .integer(0), "context": .integer(1)]))
            #expect(!FileManager.default.fileExists(atPath: pair.path("phoned/watches/a")))
            #expect(pair.occurrences(of: "3 queued items dropped", in: .phone) == 1)
            try await pair.ok(["pair", "a"])
            let list = try await Self.watches(pair)
            let a = list["watches"]?.arrayValue?.first
            #expect(a?["paired"] == .bool(true) && a?["queued"]?["userInfo"] == .integer(0))
            let table = try await pair.ok(["watches"])
            #expect(table.stdout.first?.hasPrefix("NAME") == true && table.stdout.last == "session: activated")
        }
    }
}
