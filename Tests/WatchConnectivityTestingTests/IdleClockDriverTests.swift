import Synchronization
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

/// The self-driving clock over an in-memory network, without sessions: a barrier of one `Task.yield`.
@Suite("IdleClockDriver", .timeLimit(.minutes(3)))
struct IdleClockDriverTests {
    /// A linked connection: the phone's end (read by a task that parks) and the watch's end (read by no one yet).
    struct Link {
        let network = InMemoryNetwork()
        let serving: Task<Void, any Error>
        let phone: any TransportConnection
        let watch: any TransportConnection

        init(phoneTransport: ((any Transport) -> any Transport)? = nil) async throws {
            let network = network
            let (accepted, acceptor) = AsyncStream.makeStream(of: (any TransportConnection).self)
            let hold = AsyncSignal()
            serving = Task {
                try await network.transport(for: .watch).serve { connection in
                    acceptor.yield(connection)
                    await hold.wait(after: hold.generation)  // keeps the connection until cancelled
                }
            }
            await network.waitForServing(.watch)
            let transport = phoneTransport?(network.transport(for: .phone)) ?? network.transport(for: .phone)
            phone = try await transport.connect()
            var iterator = accepted.makeAsyncIterator()
            watch = try #require(await iterator.next())
        }
    }

    /// Runs a driver of `clock` over `network` until the returned task is cancelled; reports its decisions.
    static func drive(
        _ clock: ManualClock, _ network: InMemoryNetwork, holding: HoldingClock? = nil
    ) -> (Task<Void, Never>, AsyncStream<IdleRule.Action>) {
        let (decisions, decided) = AsyncStream.makeStream(of: IdleRule.Action.self)
        let driver = IdleClockDriver(clock: clock, network: network, holding: holding, barrier: { await Task.yield() }) {
            decided.yield($0)
        }
        return (Task { await driver.run() }, decisions)
    }

    @Test("idle, time jumps to each deadline in turn, exactly")
    func jumpsToDeadlines() async throws {
        let clock = ManualClock()
        let (driving, _) = Self.drive(clock, InMemoryNetwork())
        defer { driving.cancel() }
        try await clock.sleep(until: .init(offset: .seconds(5)))
        #expect(clock.now == .init(offset: .seconds(5)))
        try await clock.sleep(for: .milliseconds(250))
        #expect(clock.now == .init(offset: .milliseconds(5250)))
    }

    @Test("time stays while a written byte is unread, and moves once its reader has it and waits again")
    func waitsForTheReader() async throws {
        let clock = ManualClock()
        let link = try await Link()
        let phoneReader = Task { for try await _ in link.phone.inbound {} }
        defer { phoneReader.cancel(); link.serving.cancel() }
        try await link.phone.write([1, 2, 3])
        let sleeper = Task { try await clock.sleep(until: .init(offset: .seconds(1))) }
        await clock.waitForSleepers(count: 1)
        let (driving, decisions) = Self.drive(clock, link.network)
        defer { driving.cancel() }
        // A sleeper is there, so waiting instead of advancing can only be for the busy network.
        for await decision in decisions where decision == .waitForActivity { break }
        #expect(clock.now == .zero)
        // The watch's end is read now; its reader goes back to read() for more: the network is quiet.
        let (chunks, chunk) = AsyncStream.makeStream(of: [UInt8].self)
        let watchReader = Task { for try await bytes in link.watch.inbound { chunk.yield(bytes) } }
        defer { watchReader.cancel() }
        var read = chunks.makeAsyncIterator()
        #expect(await read.next() == [1, 2, 3])
        try await sleeper.value
        #expect(clock.now == .init(offset: .seconds(1)))
    }

    @Test("a write held by a fault's delay lets time move even though a reader is busy")
    func heldWriteIsFreedByTime() async throws {
        let clock = ManualClock()
        let holding = HoldingClock(clock)
        let faults = Mutex<FaultInjectingTransport?>(nil)
        let link = try await Link { base in
            let transport = FaultInjectingTransport(wrapping: base, clock: holding)
            faults.withLock { $0 = transport }
            return transport
        }
        defer { link.serving.cancel() }
        // Neither end is read: the network is busy, and stays so until the test reads.
        try #require(faults.withLock { $0 }).inject(.delay(.seconds(2)))
        let write = Task { try await link.phone.write([7]) }
        await clock.waitForSleepers(count: 1)
        let (driving, _) = Self.drive(clock, link.network, holding: holding)
        defer { driving.cancel() }
        try await write.value
        #expect(clock.now == .init(offset: .seconds(2)))
    }
}
