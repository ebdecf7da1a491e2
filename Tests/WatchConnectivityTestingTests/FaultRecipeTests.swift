import Foundation
import Testing
import WatchConnectivity
import WatchConnectivityTesting

/// The fault recipes as an app's own test writes them, once each; docs/FaultInjection.md and
/// docs/Testing.md ("Faults") quote these bodies (checked below and by TestingGuideDocTests). WatchConnectivityTests runs each recipe
/// 20 times with random traffic around it.
@Suite("WCSessionPair fault recipes, as the docs show them", .timeLimit(.minutes(3)))
struct FaultRecipeTests {
    /// `sendMessage`'s outcome: the reply's echo, or `error <code>`.
    static func send(_ text: String, from session: WCSession) async -> String {
        do {
            return try await session.sendMessageAwaitingReply(["text": text])["echo"] as? String ?? "?"
        } catch {
            return "error \((error as NSError).code)"
        }
    }

    /// Answers each message the watch's recorder shows with its text, as an echoing app would.
    static func echo(_ message: ReceivedMessage) {
        message.reply(["echo": message["text"] as? String ?? "?"])
    }

    @Test("lose the reply: the watch gets the message, the phone gets 7012 after its reply timeout")
    func loseTheReply() async throws {
        let pair = try WCSessionPair(.inMemory)
        let (_, watch) = try await pair.activate()
        let faults = try #require(pair.faults), clock = try #require(pair.clock)
        var applied = faults.appliedFaults.makeAsyncIterator()
        faults.loseNextReply(from: .watch)
        let outcome = Task { await Self.send("ping", from: pair.phone) }
        let message = try await watch.first(\.message)  // delivered
        #expect(message["text"] as? String == "ping")
        Self.echo(message)  // answered by the watch app…
        #expect(await applied.next()?.frame == .reply)  // …and the answer is lost on the way
        clock.advance(by: .seconds(10))  // the reply timeout (`WCSessionPair(_:replyTimeout:)`)
        #expect(await outcome.value == "error 7012")
        await pair.shutdown()
    }

    @Test("delay delivery: the userInfo arrives when the clock has passed the delay")
    func delayDelivery() async throws {
        let pair = try WCSessionPair(.inMemory)
        let (_, watch) = try await pair.activate()
        let faults = try #require(pair.faults), clock = try #require(pair.clock)
        var applied = faults.appliedFaults.makeAsyncIterator()
        faults.delayNext(.userInfo, from: .phone, by: .seconds(2))
        pair.phone.transferUserInfo(["item": "milk"])
        pair.phone.transferUserInfo(["item": "eggs"])  // written after it: waits behind it
        #expect(await applied.next()?.frame == .userInfo)  // held from now on
        clock.advance(by: .seconds(2))
        #expect(try await watch.first(\.userInfo) == ["item": "milk"])
        #expect(try await watch.first(\.userInfo) == ["item": "eggs"])
        await pair.shutdown()
    }

    @Test("drop the link mid-transfer: every transfer still arrives once, in order")
    func dropTheLinkMidTransfer() async throws {
        let pair = try WCSessionPair(.inMemory)
        let (_, watch) = try await pair.activate()
        let faults = try #require(pair.faults)
        faults.dropLinkMidTransfer(of: .userInfo, from: .phone, afterPassing: 1)  // the second is cut in half
        let items = ["milk", "eggs", "bread"]
        for item in items { pair.phone.transferUserInfo(["item": item]) }
        for item in items { #expect(try await watch.first(\.userInfo) == ["item": item]) }
        #expect(faults.pendingFaultCount == 0)  // the link did break
        await pair.shutdown()
    }

    @Test("the watch app not running: messages fail with 7007, userInfo waits for it", arguments: WCSessionTestMode.allCases)
    func watchAppNotRunning(_ mode: WCSessionTestMode) async throws {
        let pair = try WCSessionPair(mode)
        let (_, watch) = try await pair.activate()
        await pair.stop(.watch)
        #expect(await Self.send("ping", from: pair.phone) == "error 7007")
        pair.phone.transferUserInfo(["item": "milk"])  // waits in the phone's store
        pair.watch.activate()
        #expect(try await watch.first(\.activationState) == .activated)
        #expect(try await watch.first(\.userInfo) == ["item": "milk"])
        await pair.shutdown()
    }

    @Test("restart one side: it comes back with its store", arguments: WCSessionTestMode.allCases)
    func restartOneSide(_ mode: WCSessionTestMode) async throws {
        let pair = try WCSessionPair(mode)
        let (phone, watch) = try await pair.activate()
        try pair.watch.updateApplicationContext(["list": "milk"])
        #expect(try await phone.first(\.applicationContext) == ["list": "milk"])
        await pair.restart(.watch)
        #expect(try await watch.first(\.activationState) == .activated)
        #expect(pair.watch.applicationContext["list"] as? String == "milk")  // kept in its store
        await pair.waitUntilReachable()
        let outcome = Task { await Self.send("again", from: pair.phone) }
        Self.echo(try await watch.first(\.message))
        #expect(await outcome.value == "again")
        await pair.shutdown()
    }

    @Test("every Swift block of the fault docs is an excerpt of this file")
    func docsQuoteThisFile() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        func lines(_ text: String) -> [String] {
            text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let source = lines(try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8))
        for page in ["docs/FaultInjection.md"] {
            let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            // Text after each opening fence, up to the closing one.
            let blocks = text.components(separatedBy: "```swift\n").dropFirst().map { lines($0.components(separatedBy: "\n```")[0]) }
            #expect(!blocks.isEmpty, "\(page) shows no recipe")
            for block in blocks {
                let quoted = source.indices.contains { source[$0...].starts(with: block) }
                #expect(quoted, "\(page): the block starting \(block.first ?? "") is not an excerpt of FaultRecipeTests.swift")
            }
        }
    }
}
