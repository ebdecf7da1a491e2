import Foundation
import Testing
import WatchPairTesting
import WatchPairWire

@testable import WatchConnectivity
import WatchConnectivityTesting

/// One run of a fault recipe on an activated in-memory pair: which side sends, and its seeded random source.
struct RecipeRun<Delegate: EventRecorder> {
    let pair: WCSessionPair
    let phoneDelegate: Delegate
    let watchDelegate: Delegate
    let faults: FaultInjectingTransport
    let clock: ManualClock
    /// The side that sends what the fault is about; its peer receives.
    let sender: Role
    var receiver: Role { sender.peer }

    func session(_ role: Role) -> WCSession { role == .phone ? pair.phone : pair.watch }
    func delegate(_ role: Role) -> Delegate { role == .phone ? phoneDelegate : watchDelegate }
}

extension EventRecorder {
    /// The next `count` events that are not state changes and that `include` accepts (the others are
    /// passed over).
    func contents(_ count: Int, where include: (DelegateEvent) -> Bool = { _ in true }) async -> [DelegateEvent] {
        var events: [DelegateEvent] = []
        while events.count < count, let event = await nextContent() {
            if include(event) { events.append(event) }
        }
        return events
    }
}

/// The fault recipes of docs/FaultInjection.md on `WCSessionPair`. Each runs 20 times, with a random
/// sender and traffic in a random order around the fault (seeded: `WATCHPAIR_TEST_SEED` replays a run),
/// so a fault that hit another frame than the one it names would show. Time comes from the pair's clock.
@Suite("WCSessionPair fault recipes", .timeLimit(.minutes(5)))
struct WCSessionFaultRecipeTests {
    static let runs = 20
    static let replyTimeout: Duration = .seconds(5)

    /// Runs `body` `runs` times, each on a new pair made by `makePair` and shut down after it.
    static func repeatedly<Delegate: EventRecorder>(
        _ makePair: () async throws -> (WCSessionPair, Delegate, Delegate),
        _ body: (RecipeRun<Delegate>, inout TestRandom) async throws -> Void
    ) async throws {
        var seeds = TestRandom()
        print("fault recipe seed: \(seeds.seed) (WATCHPAIR_TEST_SEED replays it)")
        for _ in 0..<runs {
            var random = TestRandom(seed: seeds.next())
            let (pair, phoneDelegate, watchDelegate) = try await makePair()
            let run = RecipeRun(
                pair: pair, phoneDelegate: phoneDelegate, watchDelegate: watchDelegate, faults: try #require(pair.faults),
                clock: try #require(pair.clock), sender: Bool.random(using: &random) ? .phone : .watch)
            try await withTeardown {
                try await body(run, &random)
            } teardown: {
                await pair.shutdown()
            }
        }
    }

    /// A linked in-memory pair with `FullDelegate`s (they answer every message with its echo).
    static func linkedPair() async throws -> (WCSessionPair, FullDelegate, FullDelegate) {
        let pair = try WCSessionPair(.inMemory, replyTimeout: replyTimeout)
        let phoneDelegate = FullDelegate(), watchDelegate = FullDelegate()
        await pair.activate(phoneDelegate, watchDelegate)
        return (pair, phoneDelegate, watchDelegate)
    }

    /// What one step of the random traffic around a fault does.
    enum Step {
        case message, userInfoToReceiver, userInfoToSender, contextToSender
    }

    @Test("lose the reply: the message is delivered, the reply handler never runs, 7012 after the reply timeout; nothing else is lost")
    func loseTheReply() async throws {
        try await Self.repeatedly(Self.linkedPair) { run, random in
            let sender = run.session(run.sender), receiver = run.session(run.receiver)
            var applied = run.faults.appliedFaults.makeAsyncIterator()
            // Around the reply, in a random order: userInfo both ways (so the receiver writes userInfo
            // frames and acknowledgements too) and a context from the receiver.
            var steps: [Step] = [.message, .contextToSender]
                + Array(repeating: .userInfoToReceiver, count: Int.random(in: 0...3, using: &random))
                + Array(repeating: .userInfoToSender, count: Int.random(in: 0...3, using: &random))
            steps.shuffle(using: &random)
            run.faults.loseNextReply(from: run.receiver)
            let lost = SendOutcome()
            var atReceiver: [DelegateEvent] = [], atSender: [DelegateEvent] = []
            for (index, step) in steps.enumerated() {
                let payload: PlistDictionary = ["step": .integer(Int64(index))]
                switch step {
                case .message:
                    sender.sendMessage(["step": index], replyHandler: lost.replyHandler(), errorHandler: lost.errorHandler())
                    atReceiver.append(.messageWithReply(payload))
                case .userInfoToReceiver:
                    _ = sender.transferUserInfo(["step": index])
                    atReceiver.append(.userInfo(payload))
                    atSender.append(.finished(payload, errorCode: nil))
                case .userInfoToSender:
                    _ = receiver.transferUserInfo(["step": index])
                    atSender.append(.userInfo(payload))
                    atReceiver.append(.finished(payload, errorCode: nil))
                case .contextToSender:
                    try receiver.updateApplicationContext(["step": index])
                    atSender.append(.context(payload))
                }
            }
            #expect(Set(await run.delegate(run.receiver).contents(atReceiver.count)) == Set(atReceiver))
            #expect(Set(await run.delegate(run.sender).contents(atSender.count)) == Set(atSender))
            let report = await applied.next()
            #expect(report == AppliedFault(fault: .drop, writeIndex: report?.writeIndex ?? -1, frame: .reply, from: run.receiver))
            #expect(lost.count == 0)

            run.clock.advance(by: Self.replyTimeout)
            await lost.wait()
            #expect(lost.errors == [7012] && lost.replies.isEmpty)
            // Nothing else was lost: the link still answers.
            let answered = SendOutcome()
            sender.sendMessage(["after": true], replyHandler: answered.replyHandler(), errorHandler: answered.errorHandler())
            await answered.wait()
            #expect(answered.replies == [["echo": .dictionary(["after": .bool(true)])]])
            #expect(lost.count == 1 && run.faults.pendingFaultCount == 0)
        }
    }

    @Test("delay delivery: the next message or userInfo arrives when the clock passes the delay, with what its side wrote after it; the other direction keeps moving")
    func delayDelivery() async throws {
        try await Self.repeatedly(Self.linkedPair) { run, random in
            let sender = run.session(run.sender), receiver = run.session(run.receiver)
            let senderDelegate = run.delegate(run.sender), receiverDelegate = run.delegate(run.receiver)
            var applied = run.faults.appliedFaults.makeAsyncIterator()
            let delay = Duration.seconds(Int.random(in: 1...3, using: &random))
            let holdsMessage = Bool.random(using: &random)
            run.faults.delayNext(holdsMessage ? .message : .userInfo, from: run.sender, by: delay)
            let answered = SendOutcome()
            if holdsMessage {
                sender.sendMessage(["held": 1], replyHandler: answered.replyHandler(), errorHandler: answered.errorHandler())
            } else {
                _ = sender.transferUserInfo(["held": 1])
            }
            let report = await applied.next()
            #expect(report == AppliedFault(
                fault: .delay(delay), writeIndex: report?.writeIndex ?? -1, frame: holdsMessage ? .message : .userInfo, from: run.sender))
            _ = sender.transferUserInfo(["behind": 1])  // written after the held frame: waits behind it
            _ = receiver.transferUserInfo(["otherWay": 1])
            #expect(await senderDelegate.nextContent() == .userInfo(["otherWay": .integer(1)]))
            #expect(receiverDelegate.unread.filter { !$0.isStateChange }.isEmpty)

            run.clock.advance(by: delay)
            let held: DelegateEvent = holdsMessage ? .messageWithReply(["held": .integer(1)]) : .userInfo(["held": .integer(1)])
            // Also held: the sender's acknowledgement of "otherWay", written after the held frame.
            let behind = DelegateEvent.userInfo(["behind": .integer(1)])
            let arrived = await receiverDelegate.contents(3)
            #expect(Set(arrived) == [held, behind, .finished(["otherWay": .integer(1)], errorCode: nil)])
            // Frames arrive in the order written; a message and a userInfo reach the app by separate paths.
            if !holdsMessage { #expect(arrived.firstIndex(of: held)! < arrived.firstIndex(of: behind)!) }
            if holdsMessage {
                await answered.wait()
                #expect(answered.replies == [["echo": .dictionary(["held": .integer(1)])]])
            }
        }
    }

    @Test("drop the link mid-transfer: half a userInfo frame, then the link closes; every transfer arrives once, in order")
    func dropLinkMidUserInfo() async throws {
        try await Self.repeatedly(Self.linkedPair) { run, random in
            var applied = run.faults.appliedFaults.makeAsyncIterator()
            let count = Int.random(in: 2...6, using: &random)
            run.faults.dropLinkMidTransfer(of: .userInfo, from: run.sender, afterPassing: Int.random(in: 0..<count, using: &random))
            let items = (0..<count).map { ["item": PlistValue.integer(Int64($0))] }
            for item in items { _ = run.session(run.sender).transferUserInfo(PropertyListBridge.object(from: item)) }
            let report = await applied.next()
            #expect(report == AppliedFault(
                fault: .disconnectMidFrame, writeIndex: report?.writeIndex ?? -1, frame: .userInfo, from: run.sender))
            #expect(await run.delegate(run.receiver).contents(count) == items.map { .userInfo($0) })
            #expect(await run.delegate(run.sender).contents(count) == items.map { .finished($0, errorCode: nil) })
            #expect(run.faults.pendingFaultCount == 0)
        }
    }

    @Test("drop the link mid-transfer: half a file chunk, then the link closes; the file arrives once, intact")
    func dropLinkMidFile() async throws {
        try await Self.repeatedly({ try await WCSessionFileTests.activatedPair() }) { run, random in
            await run.pair.waitUntilReachable()
            var applied = run.faults.appliedFaults.makeAsyncIterator()
            let chunk = 64 << 10  // the engine's default chunk size
            let size = Int.random(in: 2 * chunk...6 * chunk, using: &random)
            run.faults.dropLinkMidTransfer(of: .frame(.fileChunk), from: run.sender, afterPassing: Int.random(in: 0..<(size / chunk), using: &random))
            let (url, bytes) = try WCSessionFileTests.makeFile(in: run.pair.directory, "cut.bin", size: size, seed: random.next())
            let transfer = run.session(run.sender).transferFile(url, metadata: nil)  // held: didFinish gets this object
            #expect(transfer.isTransferring)
            let report = await applied.next()
            #expect(report == AppliedFault(
                fault: .disconnectMidFrame, writeIndex: report?.writeIndex ?? -1, frame: .fileChunk, from: run.sender))
            #expect(await run.delegate(run.receiver).next() == .file(name: "cut.bin", metadata: nil, bytes: bytes))
            #expect(await run.delegate(run.sender).next() == .fileFinished(name: "cut.bin", errorCode: nil))
            #expect(!transfer.isTransferring)
        }
    }
}
