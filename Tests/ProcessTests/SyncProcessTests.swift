import Foundation
import Testing
import WatchPairWire

/// Keyed sync through `wcctl sync` and the real daemons (docs/KeyedSync.md): values cross with their
/// revisions, a value set back still syncs, and a value too large for automaticSmall is held and says why.
@Suite("wcctl sync")
struct SyncProcessTests {
    @Test("a key set at the phone reaches the watch, is confirmed, and a value set back to an earlier one still syncs")
    func setGetList() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            // The watch never registered the key: each value is kept and reported as syncUnknownKey.
            let received = try pair.startWcctl(["events", "--follow", "--event", "syncUnknownKey"], side: .watch)
            let confirmed = try pair.startWcctl(["events", "--follow", "--event", "syncConfirmed"], side: .phone)

            let set = try #require(try await pair.ok(["sync", "set", "theme", #""dark""#]).object)
            #expect(set["revision"] == .string("1@phone") && set["needSync"] == .bool(true), "\(set)")
            #expect(await received.stdout.wait(timeout: .seconds(20)) { $0.count >= 1 }, "\(pair.diagnostics())")
            #expect(await confirmed.stdout.wait(timeout: .seconds(20)) { $0.count >= 1 }, "\(pair.diagnostics())")
            let atWatch = try #require(try await pair.ok(["sync", "get", "theme"], side: .watch).object)
            #expect(atWatch["value"] == .string("dark") && atWatch["revision"] == .string("1@phone"), "\(atWatch)")
            // A key the watch never registered is kept and shown, not applied to anything.
            #expect(atWatch["registered"] == .bool(false), "\(atWatch)")

            // Away and back: the identical value at a new revision still crosses.
            try await pair.ok(["sync", "set", "theme", #""light""#])
            try await pair.ok(["sync", "set", "theme", #""dark""#])
            #expect(await received.stdout.wait(timeout: .seconds(20)) { $0.contains { $0.contains("3@phone") } }, "\(received.stdout.lines)")
            let back = try #require(try await pair.ok(["sync", "get", "theme"], side: .watch).object)
            #expect(back["value"] == .string("dark") && back["revision"] == .string("3@phone"), "\(back)")
            #expect(await confirmed.stdout.wait(timeout: .seconds(20)) { $0.contains { $0.contains("3@phone") } }, "\(confirmed.stdout.lines)")
            let list = try await pair.ok(["sync", "list"])
            #expect(list.json.count == 1 && list.json.first?["needSync"] == .bool(false), "\(list)")
        }
    }

    @Test("a value too large for automaticSmall is held, reported, and listed with the reason; bad input is 7008")
    func tooLarge() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            let big = "\"" + String(repeating: "x", count: 20_000) + "\""
            let held = try #require(try await pair.ok(["sync", "set", "blob", big]).object)
            #expect(held["notSent"]?.stringValue?.contains("too large for automaticSmall") == true, "\(held)")
            #expect(held["needSync"] == .bool(false), "\(held)")
            let list = try await pair.ok(["sync", "list"])
            #expect(list.json.first?["notSent"]?.stringValue == "too large for automaticSmall: 20002 > 16384 bytes", "\(list)")
            let events = try await pair.ok(["--json", "events", "--event", "syncNotSent"])
            #expect(events.stdout.contains { $0.contains("blob") }, "\(events)")
            expectWCError(try await pair.wcctl(["sync", "get", "nothing"]), 7008)
            expectWCError(try await pair.wcctl(["sync", "set", "k", "1", "--policy", "sometimes"]), 7008)
            expectWCError(try await pair.wcctl(["sync", "set", "k", "{not json"]), 7008)
        }
    }
}
