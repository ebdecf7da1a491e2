import Foundation
import Synchronization
import Testing
import WatchPairTesting
import WatchPairWire

/// kill -9 of either daemon during a stream of transfers loses and duplicates nothing (docs/Design.md, "userInfo").
@Suite("Crash safety")
struct CrashStreamTests {
    /// Transfers in the stream.
    static let total = 1000
    /// Concurrent `wcctl transfer` loops (the machine has 2 cores; more only adds contention).
    static let workers = 3
    /// SIGKILLs of each daemon.
    static let killsPerSide = 3

    @Test("SIGKILL of the sender and the receiver at random points of a 1,000-transfer stream: every accepted transfer arrives once, in order")
    func killDuringStream() async throws {
        var random = TestRandom()
        let seed = random.seed
        // Kill points: accepted-transfer counts spread over the stream; three kills of each side, in random order.
        var sides = Array(repeating: Side.phone, count: Self.killsPerSide) + Array(repeating: Side.watch, count: Self.killsPerSide)
        sides.shuffle(using: &random)
        let points = (0..<sides.count).map { _ in Int.random(in: 40...(Self.total - 80), using: &random) }.sorted()
        let plan = zip(points, sides).map { Kill(at: $0, side: $1) }

        try await PairSandbox.with(config: ["durability": .string("process")]) { pair in
            try await pair.startReady(.phone)
            try await pair.startReady(.watch)
            let receivers = Receivers()
            try receivers.start(in: pair)

            let ledger = TransferLedger(total: Self.total)
            let deadline = ContinuousClock.now + .seconds(150)
            let killer = Task {
                do {
                    try await Self.kill(plan, pair: pair, ledger: ledger, receivers: receivers, deadline: deadline)
                } catch {
                    ledger.close()  // the workers stop too
                    throw error
                }
            }
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<Self.workers {
                        group.addTask { try await Self.sendAll(pair: pair, ledger: ledger, deadline: deadline) }
                    }
                    try await group.waitForAll()
                }
            } catch {
                ledger.close()
                _ = await killer.result
                throw error
            }
            // The killer may still wait for a point the stream never reached (it stopped early).
            ledger.close()
            try await killer.value

            let accepted = ledger.accepted
            #expect(accepted.count == Self.total, "seed \(seed): only \(accepted.count) of \(Self.total) transfers accepted before the deadline")
            #expect(ledger.failures.isEmpty, "seed \(seed): \(ledger.failures.prefix(5))")

            // Wait until the current receiver printed everything not printed by the earlier ones.
            let segmentsBefore = receivers.all.dropLast().map { DeliveryCheck.items($0.stdout.lines).items }
            let printedBefore = Set(segmentsBefore.joined().map(\.transferId))
            let current = try #require(receivers.all.last)
            let expected = Set(accepted.keys).subtracting(printedBefore)
            while true {
                let count = current.stdout.lines.count
                let missing = expected.subtracting(DeliveryCheck.items(current.stdout.lines).items.map(\.transferId))
                if missing.isEmpty { break }
                // Wait for more lines; stop when none come within the bound (the check below reports the loss).
                if await !current.stdout.wait(timeout: .seconds(30), until: { $0.count > count }) { break }
            }

            var segments = segmentsBefore
            let lastParse = DeliveryCheck.items(current.stdout.lines)
            segments.append(lastParse.items)
            let allLines = receivers.all.flatMap(\.stdout.lines)
            let unreadable = DeliveryCheck.items(allLines).problems
            #expect(unreadable.isEmpty, "seed \(seed): \(unreadable.prefix(5))")
            #expect(receivers.all.allSatisfy { $0.stdout.overflowed == 0 })

            let check = DeliveryCheck(accepted: accepted, unknownOutcome: ledger.unknownOutcome)
            let result = check.problems(segments: segments)
            #expect(
                result.problems.isEmpty,
                "seed \(seed), kills \(plan), \(segments.count) receiver segments, \(result.redelivered) redelivered, \(result.ghosts) ghosts:\n\(result.problems.prefix(20).joined(separator: "\n"))\n\(pair.diagnostics())")

            // The phone's outbox drains: every transfer was confirmed to it.
            try await pair.ok(["wait", "drained", "--timeout", "20"])
            #expect(plan.count == 2 * Self.killsPerSide)
            for side in Side.allCases {
                let starts = pair.occurrences(of: "foregroundLaunch", in: side)
                #expect(starts == 1 + Self.killsPerSide, "seed \(seed): \(side) started \(starts) times")
            }
        }
    }

    /// One planned SIGKILL: of `side`, once `at` transfers were accepted.
    struct Kill: Sendable, CustomStringConvertible {
        var at: Int
        var side: Side
        var description: String { "\(side)@\(at)" }
    }

    /// Carries out `plan`: at each point, SIGKILLs the daemon, restarts it and waits until it serves
    /// again; after a watch restart, starts a new receiver (the old one ended when its daemon died).
    static func kill(_ plan: [Kill], pair: PairSandbox, ledger: TransferLedger, receivers: Receivers, deadline: ContinuousClock.Instant) async throws {
        for kill in plan {
            await ledger.waitForAccepted(atLeast: kill.at)
            guard !ledger.isClosed, ContinuousClock.now < deadline else { return }
            await pair.killDaemon(kill.side)
            if kill.side == .watch, let old = receivers.all.last, await old.waitForExit(timeout: .seconds(10)) == nil {
                // Its receive --follow should end by itself (exit 3: the daemon went away).
                await old.killAndReap()
            }
            try await pair.startReady(kill.side)
            if kill.side == .watch { try receivers.start(in: pair) }
        }
    }

    /// One worker: claims payload numbers and runs `wcctl --json transfer {"n":n}` until each is
    /// accepted. Exit 3 (the phone is down or died mid-request) is retried after a short pause; the
    /// attempt's outcome is unknown, so a transfer with that number may arrive in addition.
    static func sendAll(pair: PairSandbox, ledger: TransferLedger, deadline: ContinuousClock.Instant) async throws {
        while let n = ledger.claim() {
            while !ledger.isClosed {
                guard ContinuousClock.now < deadline else {
                    ledger.fail("transfer n \(n) not accepted before the deadline")
                    return
                }
                let run = try await pair.wcctl(["--json", "transfer", #"{"n":\#(n)}"#])
                if run.status == 0, let id = run.object?["transferId"]?.stringValue, let seq = run.object?["seq"]?.integerValue {
                    ledger.accept(n: n, id: id, seq: seq)
                    break
                }
                if run.status == 3 {
                    ledger.unknown(n)
                } else {
                    ledger.fail("\(run)")
                }
                // Retry delay while the phone restarts (not a timing assumption: the retry is bounded by the deadline).
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }
}

/// The receiving `wcctl receive --follow` processes of the crash test, oldest first (one per watch run).
final class Receivers: Sendable {
    private let list = Mutex<[ChildProcess]>([])

    /// Starts the newest receiver: `wcctl --side watch receive --follow --channel userInfo`.
    func start(in pair: PairSandbox) throws {
        let receiver = try pair.startWcctl(["receive", "--follow", "--channel", "userInfo"], side: .watch)
        list.withLock { $0.append(receiver) }
    }

    /// Every receiver so far.
    var all: [ChildProcess] { list.withLock { $0 } }
}
