import Foundation
import Testing
import WatchPairTesting
import WatchPairWire

@testable import WatchConnectivity
import WatchConnectivityTesting

/// `WCSessionPair.stop(_:)` and `restart(_:)`: one side stopped, and started again, within a test, in
/// memory and over sockets; 20 rounds each on one pair, with a random number of transfers (seeded).
@Suite("WCSessionPair: one side stopped and started within a test", .timeLimit(.minutes(5)))
struct WCSessionPairLifecycleTests {
    static let rounds = 20

    /// Runs `body` for each round on one activated, linked pair in `mode` (with `FullDelegate`s), then
    /// shuts the pair down.
    static func inRounds(
        _ mode: WCSessionTestMode,
        _ body: (WCSessionPair, _ phone: FullDelegate, _ watch: FullDelegate, _ round: Int, inout TestRandom) async throws -> Void
    ) async throws {
        var random = TestRandom()
        print("lifecycle seed: \(random.seed) (WATCHPAIR_TEST_SEED replays it)")
        let pair = try WCSessionPair(mode)
        let phoneDelegate = FullDelegate(), watchDelegate = FullDelegate()
        await pair.activate(phoneDelegate, watchDelegate)
        try await withTeardown {
            for round in 0..<rounds { try await body(pair, phoneDelegate, watchDelegate, round, &random) }
        } teardown: {
            await pair.shutdown()
        }
    }

    /// `count` userInfo payloads of `round`.
    static func items(_ round: Int, count: Int) -> [PlistDictionary] {
        (0..<count).map { ["round": .integer(Int64(round)), "item": .integer(Int64($0))] }
    }

    /// Queues `items` and `context` at `sender` (its peer is stopped) and checks the transfers wait there.
    static func queue(_ items: [PlistDictionary], context: PlistDictionary, at sender: WCSession) throws {
        for item in items { _ = sender.transferUserInfo(PropertyListBridge.object(from: item)) }
        try sender.updateApplicationContext(PropertyListBridge.object(from: context))
        #expect(sender.outstandingUserInfoTransfers.map { plist($0.userInfo) } == items)
    }

    /// Starts the stopped `receiver` again: its delegate hears its activation, then `items` once and in
    /// order, and `context`; the sender's delegate hears didFinish for each item.
    ///
    /// Only `round`'s content counts: a stop is abrupt, so a callback of an earlier round that had not
    /// been acknowledged when its app stopped is handed again (WCSessionPair.stop(_:)).
    static func start(
        _ receiver: WCSession, _ receiverDelegate: FullDelegate, expecting items: [PlistDictionary], context: PlistDictionary,
        senderDelegate: FullDelegate, round: Int
    ) async {
        receiver.activate()
        let arrived = await receiverDelegate.contents(items.count + 2, of: round)
        #expect(arrived.first == .activated(.activated, errorCode: nil))
        #expect(arrived.filter(\.isUserInfo) == items.map { .userInfo($0) })
        #expect(arrived.contains(.context(context)))
        #expect(await senderDelegate.contents(items.count, of: round) == items.map { .finished($0, errorCode: nil) })
    }

    @Test("the watch app not running: messages fail with 7007; userInfo waits and arrives once, in order, when it starts again",
          arguments: WCSessionTestMode.allCases)
    func watchAppNotRunning(_ mode: WCSessionTestMode) async throws {
        try await Self.inRounds(mode) { pair, phoneDelegate, watchDelegate, round, random in
            await pair.stop(.watch)
            let refused = SendOutcome()
            pair.phone.sendMessage(["round": round], replyHandler: refused.replyHandler(), errorHandler: refused.errorHandler())
            await refused.wait()
            #expect(refused.errors == [7007])
            let items = Self.items(round, count: Int.random(in: 1...3, using: &random))
            let context: PlistDictionary = ["round": .integer(Int64(round))]
            try Self.queue(items, context: context, at: pair.phone)
            await Self.start(pair.watch, watchDelegate, expecting: items, context: context, senderDelegate: phoneDelegate, round: round)
            await pair.waitUntilReachable()
        }
    }

    @Test("restart one side: it keeps its store (its context, its queued transfers), which then arrive once, in order",
          arguments: WCSessionTestMode.allCases)
    func restartOneSide(_ mode: WCSessionTestMode) async throws {
        try await Self.inRounds(mode) { pair, phoneDelegate, watchDelegate, round, random in
            let side: Role = Bool.random(using: &random) ? .phone : .watch
            let (restarted, peer) = side == .phone ? (pair.phone, pair.watch) : (pair.watch, pair.phone)
            let (restartedDelegate, peerDelegate) = side == .phone ? (phoneDelegate, watchDelegate) : (watchDelegate, phoneDelegate)
            // Its peer away, so what it sends stays in its store across the restart.
            await pair.stop(side.peer)
            let items = Self.items(round, count: Int.random(in: 1...3, using: &random))
            let context: PlistDictionary = ["round": .integer(Int64(round))]
            try Self.queue(items, context: context, at: restarted)

            await pair.restart(side)
            #expect(await restartedDelegate.contents(1, of: round) == [.activated(.activated, errorCode: nil)])
            #expect(plist(restarted.applicationContext) == context)
            #expect(restarted.outstandingUserInfoTransfers.map { plist($0.userInfo) } == items)
            await Self.start(peer, peerDelegate, expecting: items, context: context, senderDelegate: restartedDelegate, round: round)
            await pair.waitUntilReachable()
        }
    }
}

extension DelegateEvent {
    /// The `round` of the payload it carries, if any.
    var round: Int? {
        let payload: PlistDictionary
        switch self {
        case .userInfo(let dictionary), .context(let dictionary), .finished(let dictionary, _): payload = dictionary
        default: return nil
        }
        guard case .integer(let round)? = payload["round"] else { return nil }
        return Int(round)
    }

    /// Whether it is a received userInfo.
    var isUserInfo: Bool {
        if case .userInfo = self { true } else { false }
    }
}

extension EventRecorder {
    /// The next `count` events that are activations or carry `round`'s content; state changes and
    /// earlier rounds' content are passed over.
    func contents(_ count: Int, of round: Int) async -> [DelegateEvent] {
        await contents(count) { $0 == .activated(.activated, errorCode: nil) || $0.round == round }
    }
}
