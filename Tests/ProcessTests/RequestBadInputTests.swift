import Foundation
import Testing
import WatchPairWire

/// Issue 11's "Bad input" over the real daemons: an unknown type, a request over the size limit, and
/// unreadable persisted files of the reliability layer.
@Suite("bad input to the daemons' reliability layer")
struct RequestBadInputTests {
    @Test("a request over the daemon's payload limit is 7009 before anything is sent, by any strategy")
    func overTheLimit() async throws {
        let limits: JSONValue = .object(["message": .integer(1000), "userInfo": .integer(1000)])
        try await PairSandbox.with(config: ["limits": limits]) { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let app = try await pair.startHandler(["serve", "Big", "--reply", "{}"], side: .phone)
            let big = #"{"s":"\#(String(repeating: "x", count: 1200))"}"#
            for strategy in ["messageWithUserInfoFallback", "userInfoOnly", "contextOnly"] {
                let run = try await pair.wcctl(["request", "Big", big, "--strategy", strategy], side: .watch)
                expectWCError(run, 7009)
                #expect(run.stderr.contains("7009"), "\(strategy): \(run)")
            }
            // Nothing left the watch: no transfer, no fallback, no queueing, and no handler ran.
            let status = try await pair.status(.watch)
            #expect(status["outstandingTransfers"] == .integer(0), "\(status)")
            let events = try await pair.ok(["--json", "events"], side: .watch).json.compactMap { $0["event"]?.stringValue }
            #expect(!events.contains("fallbackUsed") && !events.contains("requestQueued"), "\(events)")
            #expect(events.filter { $0 == "deliveryFailed" }.count == 3, "\(events)")
            #expect(app.stdout.lines.isEmpty, "the handler ran for \(app.stdout.lines)")
            // Just under the limit goes.
            let fits = try await pair.ok(["request", "Big", #"{"s":"\#(String(repeating: "x", count: 700))"}"#], side: .watch)
            #expect(fits.stdout == ["{}"], "\(fits)")
        }
    }

    @Test("unreadable queue, responses and held files are set aside with an event each; the daemon starts and the next request works")
    func corruptFiles() async throws {
        try await PairSandbox.with { pair in
            let names = ["watchconnection-queue.json", "watchconnection-responses.json", "watchconnection-held.json"]
            for (side, garbage) in [(Side.watch, "{\"version\":1,\"requests\":[{"), (Side.phone, "\u{0}\u{1}not json")] {
                try FileManager.default.createDirectory(atPath: pair.path(side.daemon), withIntermediateDirectories: true)
                for name in names { try Data(garbage.utf8).write(to: URL(fileURLWithPath: pair.path("\(side.daemon)/\(name)"))) }
            }
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            for side in Side.allCases {
                let events = try await pair.ok(["--json", "events", "--event", "storageFileSetAside"], side: side).json
                let paths = events.compactMap { $0["message"]?.stringValue }
                #expect(events.count == 3, "\(side): \(paths)")
                for name in names {
                    #expect(paths.contains { $0.contains("\(name).corrupt-") }, "\(side): \(name) not reported: \(paths)")
                    let moved = try FileManager.default.contentsOfDirectory(atPath: pair.path(side.daemon)).filter { $0.hasPrefix("\(name).corrupt-") }
                    #expect(moved.count == 1, "\(side): \(name) set aside as \(moved)")
                }
            }
            _ = try await pair.startHandler(["serve", "Ping", "--reply", #"{"pong":1}"#], side: .phone)
            let run = try await pair.ok(["request", "Ping", "{}"], side: .watch)
            #expect(run.stdout == [#"{"pong":1}"#], "\(run)")
            let queued = try await pair.ok(["queue"], side: .watch)
            #expect(queued.stdout.isEmpty, "\(queued)")
        }
    }
}
