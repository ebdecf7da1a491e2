import Foundation
import Synchronization
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// Kills and restarts both engines at random points while 2,000 userInfo transfers stream across real
/// Unix sockets into real stores, then proves: none lost, none delivered twice, order kept, and the
/// last context wins. Every other transfer is routed to a second inbox queue on arrival (as the daemons
/// route their reliability layer's items), read and acknowledged by a consumer of its own: both queues
/// keep exactly-once and their order. Reproduce a run with WATCHPAIR_CRASH_SEED=<seed printed by the test>.
///
/// Its bounds are safety nets, not measurements: the run costs about 8 s of CPU (2.4 s of wall time
/// alone on two cores), 10 s next to the process tests and 48 s inside a full parallel `swift test`;
/// a machine also busy with builds stretches that further, so the bounds leave room for a slow machine
/// while a real hang still fails. (The one hang found, issue 10, was in this test's consumer: see below.)
@Suite("crash recovery", .timeLimit(.minutes(3)))
struct CrashRecoveryTests {
    static let transfers = 2_000
    static let restartsPerSide = 12

    @Test("2,000 transfers survive repeated kills of both sides")
    func streamSurvivesRestarts() async throws {
        var random = TestRandom(seedVariable: "WATCHPAIR_CRASH_SEED")
        print("crash recovery seed: \(random.seed)")
        let pair = try EnginePair(.unixSocket, durability: .power, routeInbox: Self.route)
        try await pair.start(.watch)
        try await pair.start(.phone)
        let ledger = Ledger()

        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await Self.produce(into: pair, ledger: ledger) }
            group.addTask { try await Self.consume(from: pair, queue: .app, ledger: ledger) }
            group.addTask { try await Self.consume(from: pair, queue: Self.second, ledger: ledger) }
            // Chaos: alternate sides so each is killed `restartsPerSide` times, at random moments.
            for round in 0..<(2 * Self.restartsPerSide) {
                try await Task.sleep(for: .milliseconds(Int.random(in: 5...60, using: &random)))
                let role: Role = round.isMultiple(of: 2) ? .watch : .phone
                await pair.stop(role)
                try await pair.start(role)
            }
            ledger.chaosDone()
            try await withTimeout(.seconds(150), "all transfers delivered") {
                try await until("consumer has every accepted transfer", on: ledger.progress) {
                    ledger.isComplete
                }
            }
            ledger.finish()
            try await group.waitForAll()
        }

        let report = ledger.report()
        #expect(report.accepted.count >= Self.transfers)
        #expect(report.duplicates.isEmpty, "delivered twice: \(report.duplicates.prefix(5))")
        #expect(report.missing.isEmpty, "lost: \(report.missing.prefix(5))")
        #expect(report.outOfOrder == 0)

        // The last context wins: set once more after the chaos, it is what the watch ends with.
        let phone = try #require(pair.engine(.phone))
        let watch = try #require(pair.engine(.watch))
        try await phone.updateApplicationContext(["final": .integer(Int64(Self.transfers))])
        try await until("final context", on: watch.appSignal) {
            (try? await watch.receivedApplicationContext()) == ["final": .integer(Int64(Self.transfers))]
        }
        await pair.tearDown()
    }

    /// The sending app: transfers 0..<2000 one after another, retrying a transfer whose call failed
    /// while its engine was down; updates the context every 100 transfers.
    static func produce(into pair: EnginePair, ledger: Ledger) async throws {
        for n in 0..<transfers {
            while true {
                let seen = pair.lifecycle.generation
                if let phone = pair.engine(.phone) {
                    do {
                        let transfer = try await phone.transferUserInfo(["a": .integer(Int64(n % 2)), "n": .integer(Int64(n))])
                        ledger.accepted(transfer.transferId)
                        if n.isMultiple(of: 100) { _ = try? await phone.updateApplicationContext(["n": .integer(Int64(n))]) }
                        break
                    } catch {
                        // Its store was closed under it: a crash. Retry once the side is back.
                    }
                }
                await pair.lifecycle.wait(after: seen)
            }
        }
    }

    /// The second inbox queue: odd transfers (`"a": 1`, their first key) are routed there.
    static let second = InboxQueue(rawValue: 1)

    /// Payloads that start `{"a": 1, …` with two entries: the odd transfers.
    static let route = InboxRoute(
        prefix: Array(try! EncodedDictionary(["a": .integer(1), "n": .integer(0)]).bytes.prefix(1 + 4 + 4 + 1 + 1 + 8)),
        queue: second)

    /// One queue's reader: takes what arrived in `queue`, in order, and acknowledges it there.
    static func consume(from pair: EnginePair, queue: InboxQueue, ledger: Ledger) async throws {
        while true {
            // Generations first, then the checks: a fire in between is not lost. (The progress generation
            // was read inside the waiting child, after the check: a finish() in that window left this
            // loop waiting for a signal that never came, until the time limit; issue 10's over-limit run.)
            let progressed = ledger.progress.generation
            guard !ledger.isFinished else { return }
            let seen = pair.lifecycle.generation
            guard let watch = pair.engine(.watch) else {
                await pair.lifecycle.wait(after: seen)
                continue
            }
            let arrived = watch.appSignal.generation
            guard let batch = try? await watch.pendingUserInfo(limit: 256, queue: queue) else {
                await pair.lifecycle.wait(after: seen)
                continue
            }
            for item in batch {
                #expect(item.queue == queue && InboxRoute.queue(of: item.encodedPayload, under: [route]) == queue, "an item of another queue")
                ledger.delivered(item)
            }
            if let last = batch.last { try? await watch.acknowledgeUserInfo(upTo: last.deliveryId, queue: queue) }
            if batch.isEmpty {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await watch.appSignal.wait(after: arrived) }
                    group.addTask { await pair.lifecycle.wait(after: seen) }
                    group.addTask { await ledger.progress.wait(after: progressed) }
                    await group.next()
                    group.cancelAll()
                }
            }
        }
    }
}

/// What the producer had accepted and what the consumer was given, checked at the end.
final class Ledger: Sendable {
    struct Report {
        var accepted: [UUID]
        var duplicates: [UUID]
        var missing: [UUID]
        var outOfOrder: Int
    }

    private struct State {
        var accepted: [UUID] = []
        var acceptedSet: Set<UUID> = []
        var byDelivery: [UInt64: UUID] = [:]
        /// Per queue, in the order its reader was given them.
        var deliveredOrder: [InboxQueue: [UUID]] = [:]
        var deliveredSet: Set<UUID> = []
        var duplicates: [UUID] = []
        /// The last seq given out of each queue: each queue keeps the send order.
        var lastSeq: [InboxQueue: UInt64] = [:]
        var outOfOrder = 0
        var chaosDone = false
        var finished = false
    }

    private let state = Mutex(State())
    let progress = AsyncSignal()

    func accepted(_ id: UUID) {
        state.withLock {
            $0.accepted.append(id)
            $0.acceptedSet.insert(id)
        }
    }

    /// An item handed to the app. The same deliveryId again is a redelivery of an unacknowledged item
    /// (allowed); the same transfer under a new deliveryId is a duplicate (a bug).
    func delivered(_ item: InboxTransfer) {
        state.withLock { state in
            if let known = state.byDelivery[item.deliveryId] {
                if known != item.transferId { state.duplicates.append(item.transferId) }
                return
            }
            state.byDelivery[item.deliveryId] = item.transferId
            if !state.deliveredSet.insert(item.transferId).inserted {
                state.duplicates.append(item.transferId)
                return
            }
            if item.seq <= state.lastSeq[item.queue, default: 0] { state.outOfOrder += 1 }
            state.lastSeq[item.queue] = item.seq
            state.deliveredOrder[item.queue, default: []].append(item.transferId)
        }
        progress.fire()
    }

    func chaosDone() {
        state.withLock { $0.chaosDone = true }
        progress.fire()
    }

    func finish() {
        state.withLock { $0.finished = true }
        progress.fire()
    }

    var isFinished: Bool { state.withLock { $0.finished } }

    var isComplete: Bool {
        state.withLock { $0.chaosDone && $0.accepted.count == CrashRecoveryTests.transfers && $0.acceptedSet.isSubset(of: $0.deliveredSet) }
    }

    func report() -> Report {
        state.withLock { state in
            let missing = state.accepted.filter { !state.deliveredSet.contains($0) }
            // Within each queue, accepted transfers must appear in the order they were accepted.
            var inversions = 0
            for order in state.deliveredOrder.values {
                let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
                let positions = state.accepted.compactMap { position[$0] }
                inversions += zip(positions, positions.dropFirst()).filter { $0 >= $1 }.count
            }
            return Report(
                accepted: state.accepted, duplicates: state.duplicates, missing: missing,
                outOfOrder: state.outOfOrder + inversions
            )
        }
    }
}
