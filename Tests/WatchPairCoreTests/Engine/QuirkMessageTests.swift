import Foundation
import Synchronization
import Testing
import WatchPairCore
import WatchPairQuirks
import WatchPairTesting
import WatchPairWire

/// The quirks of the message path and reachability, in the engine (docs/Quirks.md): each set on the phone,
/// observed by the phone's caller, with its `quirkInjected` event naming it.
@Suite("quirks: messages and reachability", .timeLimit(.minutes(3)))
struct QuirkMessageTests {
    static let echo = MessageHandler(variants: [.dictionaryWithReply]) { .success($0.body) }

    @Test("phantomReachability: isReachable reads true with no peer, and sends fail 7007")
    func phantomReachability() async throws {
        let pair = try EnginePair(.inMemory)
        let phone = try await pair.start(.phone)
        #expect(await phone.isReachable == false)
        let events = phone.diagnostics.subscribe()
        await phone.setQuirk(.phantomReachability, .always)
        #expect(await phone.isReachable)
        await #expect(throws: WCFailure.self) { try await phone.sendMessage(.dictionary([:]), wantsReply: true) }
        let injected = try await events.first(.quirkInjected)
        #expect(injected.fields[.quirk] == .string("phantomReachability") && injected.channel == .message)
        #expect(await phone.quirkStatuses.map(\.injections) == [1])
        await phone.clearQuirk(nil)
        #expect(await phone.isReachable == false)
        #expect(await phone.quirkStatuses.isEmpty)
        await pair.tearDown()
    }

    @Test("phantomReachability over a live link: the message fails 7007 and never reaches the watch")
    func phantomOverLink() async throws {
        let pair = try EnginePair(.inMemory)
        let (watch, phone) = try await pair.startLinked(watchHandler: Self.echo)
        let watchEvents = watch.diagnostics.subscribe()
        await phone.setQuirk(.phantomReachability, try QuirkSetting(count: 1))
        do {
            _ = try await phone.sendMessage(.dictionary(["n": .integer(1)]), wantsReply: true)
            Issue.record("expected 7007")
        } catch { #expect(error.code == .notReachable) }
        // Spent after one: the next message goes through, and it is the first the watch sees (the refused
        // one never got an id, so this one is message 1 and the watch's first).
        #expect(try await phone.sendMessage(.dictionary(["n": .integer(2)]), wantsReply: true) == .dictionary(["n": .integer(2)]))
        let received = try await watchEvents.first(.messageReceived)
        #expect(received.seq == 1)
        #expect(await watch.status().messagesInFlight == 0)
        await pair.tearDown()
    }

    @Test("asymmetricReachability: the phone reads the watch not reachable, the watch reaches the phone")
    func asymmetricReachability() async throws {
        let pair = try EnginePair(.inMemory)
        let phone = try await pair.start(.phone)
        await phone.setMessageHandler(Self.echo)
        let events = phone.diagnostics.subscribe()
        await phone.setQuirk(.asymmetricReachability, .always)
        let watch = try await pair.start(.watch)
        _ = try await events.first(.quirkInjected) { $0.fields[.quirk] == .string("asymmetricReachability") }
        try await until("phone linked", on: phone.stateSignal) { await phone.status().link == "connected" }
        #expect(await phone.isReachable == false)
        #expect(await phone.status().reachable == false)
        do {
            _ = try await phone.sendMessage(.dictionary([:]), wantsReply: true)
            Issue.record("expected 7007")
        } catch { #expect(error.code == .notReachable) }
        try await until("watch reaches the phone", on: watch.stateSignal) { await watch.isReachable }
        #expect(try await watch.sendMessage(.dictionary(["w": .bool(true)]), wantsReply: true) == .dictionary(["w": .bool(true)]))
        // Cleared: the phone reads what the link says.
        await phone.clearQuirk(.asymmetricReachability)
        #expect(await phone.isReachable)
        await pair.tearDown()
    }

    @Test("lateReply: 7012 at the timeout, the reply held past it is dropped: one outcome")
    func lateReply() async throws {
        let clock = ManualClock()
        let pair = try EnginePair(.inMemory, clock: clock)
        let (_, phone) = try await pair.startLinked(watchHandler: Self.echo)
        await phone.setQuirk(.lateReply, try QuirkSetting(delay: .seconds(2) ... .seconds(2)))
        let events = phone.diagnostics.subscribe()
        let outcomes = Outcomes()
        try await phone.sendMessage(.dictionary(["n": .integer(1)]), wantsReply: true, timeout: .seconds(10)) { outcomes.add($0) }
        let injected = try await events.first(.quirkInjected)
        #expect(injected.fields[.quirk] == .string("lateReply") && injected.seq == 1)
        // The call's deadline and the held reply: two sleepers.
        await clock.waitForSleepers(count: 2)
        clock.advance(by: .seconds(10))
        let failed = try await events.first(.messageFailed)
        #expect(failed.errorCode == .messageReplyTimedOut)
        clock.advance(by: .seconds(2))
        #expect(try await events.first(.messageAnswerDropped).seq == 1, "the held reply, released after its call ended")
        await phone.clearQuirk(nil)
        // Another message proves the engine went on; the first has one outcome only.
        #expect(try await phone.sendMessage(.dictionary(["n": .integer(2)]), wantsReply: true) == .dictionary(["n": .integer(2)]))
        #expect(outcomes.codes == [.messageReplyTimedOut] && outcomes.count == 1)
        await pair.tearDown()
    }

    @Test("replyAndError: the reply, then 7012 for the same message")
    func replyAndError() async throws {
        let pair = try EnginePair(.inMemory)
        let (_, phone) = try await pair.startLinked(watchHandler: Self.echo)
        await phone.setQuirk(.replyAndError, .always)
        let outcomes = Outcomes()
        try await phone.sendMessage(.dictionary(["n": .integer(1)]), wantsReply: true) { outcomes.add($0) }
        try await until("two outcomes", on: phone.messageSignal) { outcomes.count == 2 }
        #expect(outcomes.replies == [.dictionary(["n": .integer(1)])])
        #expect(outcomes.codes == [.messageReplyTimedOut])
        await pair.tearDown()
    }

    @Test("replyAndError for a caller that answers once: both outcomes at once, the completion not called")
    func replyThenError() async throws {
        let pair = try EnginePair(.inMemory)
        let (_, phone) = try await pair.startLinked(watchHandler: Self.echo)
        await phone.setQuirk(.replyAndError, try QuirkSetting(count: 1))
        let outcomes = Outcomes()
        let both = Outcomes()
        for n in 1...2 {
            try await phone.sendMessage(.dictionary(["n": .integer(Int64(n))]), wantsReply: true) { outcomes.add($0) } replyThenError: {
                both.add(.success($0))
                both.add(.failure($1))
            }
        }
        try await until("both calls over", on: phone.messageSignal) { both.count == 2 && outcomes.count == 1 }
        #expect(both.replies == [.dictionary(["n": .integer(1)])] && both.codes == [.messageReplyTimedOut])
        #expect(outcomes.replies == [.dictionary(["n": .integer(2)])] && outcomes.codes.isEmpty, "spent: the second as usual")
        await pair.tearDown()
    }

    @Test("lostReply: the watch's handler ran, the phone gets 7012 at its timeout")
    func lostReply() async throws {
        let clock = ManualClock()
        let pair = try EnginePair(.inMemory, clock: clock)
        let (watch, phone) = try await pair.startLinked(watchHandler: Self.echo)
        await phone.setQuirk(.lostReply, .always)
        let events = phone.diagnostics.subscribe()
        let watchEvents = watch.diagnostics.subscribe()
        let sent = Task { try await phone.sendMessage(.dictionary([:]), wantsReply: true, timeout: .seconds(5)) }
        _ = try await watchEvents.first(.messageReceived)
        _ = try await events.first(.quirkInjected) { $0.fields[.quirk] == .string("lostReply") }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(5))
        do {
            _ = try await sent.value
            Issue.record("expected 7012")
        } catch let failure as WCFailure { #expect(failure.code == .messageReplyTimedOut) }
        await pair.tearDown()
    }

    @Test("with no quirk set nothing is injected and reachability is the link's")
    func noQuirk() async throws {
        let pair = try EnginePair(.inMemory)
        let (_, phone) = try await pair.startLinked(watchHandler: Self.echo)
        let events = phone.diagnostics.subscribe()
        for n in 1...3 {
            #expect(try await phone.sendMessage(.dictionary(["n": .integer(Int64(n))]), wantsReply: true) == .dictionary(["n": .integer(Int64(n))]))
        }
        await phone.setQuirk(.lostReply, try QuirkSetting(probability: 0))
        #expect(try await phone.sendMessage(.dictionary([:]), wantsReply: true) == .dictionary([:]))
        #expect(await phone.quirkStatuses.map { [$0.opportunities, $0.injections] } == [[1, 0]])
        // A marker event after the sends: no quirkInjected came before it.
        phone.diagnostics.emit(DiagnosticEvent(.idleExit, role: .phone, "marker"))
        for await event in events where event.kind == .quirkInjected || event.kind == .idleExit {
            #expect(event.kind == .idleExit)
            break
        }
        await pair.tearDown()
    }
}

/// The outcomes a completion-based send reported, in order.
final class Outcomes: Sendable {
    private let all = Mutex<[Result<MessageBody?, WCFailure>]>([])
    func add(_ outcome: Result<MessageBody?, WCFailure>) { all.withLock { $0.append(outcome) } }
    var count: Int { all.withLock { $0.count } }
    var codes: [WCErrorCode] { all.withLock { $0.compactMap { if case .failure(let f) = $0 { f.code } else { nil } } } }
    var replies: [MessageBody?] { all.withLock { $0.compactMap { if case .success(let r) = $0 { r } else { nil } } } }
}
