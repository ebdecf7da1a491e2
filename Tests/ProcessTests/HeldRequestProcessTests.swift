import Foundation
import Testing
import WatchPairWire

/// A request that reaches the phone app before its handler: held by the phone's reliability layer
/// (persisted), and run once when `wcctl serve` registers the type, even after kill -9 in between.
@Suite("requests that arrive before their handler")
struct HeldRequestProcessTests {
    @Test("a userInfo request held at the phone survives kill -9 of the phone and runs once when serve starts")
    func heldUntilServe() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let held = try pair.startWcctl(["events", "--follow", "--event", "requestHeld"], side: .phone)
            let waiting = try pair.startWcctl(
                ["request", "Ping", #"{"n":1}"#, "--strategy", "userInfoOnly", "--retry", "1/60"], side: .watch)
            #expect(await held.stdout.wait(timeout: .seconds(20)) { !$0.isEmpty }, "no requestHeld at the phone\n\(pair.diagnostics())")

            await pair.killDaemon(.phone)
            try await pair.startReady(.phone)
            let before = try #require(try await pair.ok(["health"], side: .phone).object)
            #expect(before["heldRequests"] == .integer(1), "held after the restart: \(before)")

            let app = try await pair.startHandler(["serve", "Ping", "--reply", #"{"pong":1}"#], side: .phone)
            #expect(await waiting.waitForExit(timeout: .seconds(40)) == 0, "\(waiting.stderrText)")
            #expect(waiting.stdout.lines == [#"{"pong":1}"#], "the sender got \(waiting.stdout.lines)")
            #expect(app.stdout.lines == [#"{"body":{"n":1},"type":"Ping"}"#], "the handler ran for \(app.stdout.lines)")
            let after = try #require(try await pair.ok(["health"], side: .phone).object)
            #expect(after["heldRequests"] == .integer(0), "\(after)")
        }
    }

    /// One owner per item: the layer's userInfo arrives in its own queue, so a `receive` client is given
    /// only the app's items, and its acknowledgement (which `receive` sends for what it printed) cannot
    /// remove the layer's. The app's item comes first: the layer used to acknowledge only an unbroken run
    /// of its items from the inbox's head, so the request stayed where `receive` read it.
    @Test("receive never shows the layer's userInfo items and its ack never removes them")
    func receiveSeesOnlyTheAppsItems() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let held = try pair.startWcctl(["events", "--follow", "--event", "requestHeld"], side: .phone)
            _ = try await pair.transfer(#"{"n":1}"#, side: .watch)
            let waiting = try pair.startWcctl(
                ["request", "Ping", #"{"n":2}"#, "--strategy", "userInfoOnly", "--retry", "1/60"], side: .watch)
            #expect(await held.stdout.wait(timeout: .seconds(20)) { !$0.isEmpty }, "no requestHeld at the phone\n\(pair.diagnostics())")

            let items = try await pair.receivePending(.phone, channels: ["userInfo"])
            #expect(items.map { $0["userInfo"] } == [.object(["n": .integer(1)])], "receive printed \(items)")
            #expect(try await pair.receivePending(.phone, channels: ["userInfo"]).isEmpty, "taken once")

            // The request is still the layer's: it runs when its handler registers.
            let app = try await pair.startHandler(["serve", "Ping", "--reply", #"{"pong":2}"#], side: .phone)
            #expect(await waiting.waitForExit(timeout: .seconds(40)) == 0, "\(waiting.stderrText)")
            #expect(waiting.stdout.lines == [#"{"pong":2}"#], "the sender got \(waiting.stdout.lines)")
            #expect(app.stdout.lines == [#"{"body":{"n":2},"type":"Ping"}"#], "the handler ran for \(app.stdout.lines)")
        }
    }
}
