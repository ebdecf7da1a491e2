import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

@Suite("FaultInjectingTransport", .timeLimit(.minutes(3)))
struct FaultInjectingTransportTests {
    /// A phone whose writes go through `faulty`, connected to a plain watch; `body` gets both ends.
    private func withFaultyLink(
        _ body: (
            _ faulty: FaultInjectingTransport, _ clock: ManualClock,
            _ client: any TransportConnection, _ server: InMemoryConnection
        ) async throws -> Void
    ) async throws {
        let network = InMemoryNetwork()
        let clock = ManualClock()
        let faulty = FaultInjectingTransport(wrapping: network.transport(for: .phone), clock: clock)
        try await TestKit.withServer(network.transport(for: .watch), on: network, role: .watch) { accepted in
            let client = try await faulty.connect()
            let server = try #require(await TestKit.next(accepted) as? InMemoryConnection)
            try await body(faulty, clock, client, server)
        }
    }

    @Test("without faults, writes pass unchanged and are counted")
    func passThrough() async throws {
        try await withFaultyLink { faulty, _, client, server in
            try await client.write([1, 2])
            faulty.inject(.none)
            try await client.write([3])
            #expect(try await TestKit.read(server) == [1, 2])
            #expect(try await TestKit.read(server) == [3])
            #expect(faulty.writesObserved == 2)
            #expect(faulty.pendingFaultCount == 0)
            #expect(client.description.contains("phone→watch"))
        }
    }

    @Test("drop: the write's bytes never arrive, later writes do")
    func drop() async throws {
        try await withFaultyLink { faulty, _, client, server in
            var applied = faulty.appliedFaults.makeAsyncIterator()
            faulty.inject(.none)
            faulty.inject(.drop)
            try await client.write([1])
            try await client.write([2])
            try await client.write([3])
            #expect(await applied.next() == AppliedFault(fault: .drop, writeIndex: 1))
            #expect(try await TestKit.read(server) == [1])
            #expect(try await TestKit.read(server) == [3])
            #expect(faulty.writesObserved == 3)
        }
    }

    @Test("corrupt: exactly the byte at the (clamped) offset has all bits flipped", arguments: [
        (2, [0x00, 0x11, 0xDD, 0x33]),
        (99, [0x00, 0x11, 0x22, 0xCC]),
        (-5, [0xFF, 0x11, 0x22, 0x33]),
    ] as [(Int, [UInt8])])
    func corrupt(byteOffset: Int, expected: [UInt8]) async throws {
        try await withFaultyLink { faulty, _, client, server in
            var applied = faulty.appliedFaults.makeAsyncIterator()
            faulty.inject(.corrupt(byteOffset: byteOffset))
            try await client.write([0x00, 0x11, 0x22, 0x33])
            #expect(await applied.next() == AppliedFault(fault: .corrupt(byteOffset: byteOffset), writeIndex: 0))
            #expect(try await TestKit.read(server) == expected)
        }
    }

    @Test("disconnectMidFrame: the first half of the bytes arrives, then end of stream")
    func disconnectMidFrame() async throws {
        try await withFaultyLink { (faulty, _, client, server) async throws in
            faulty.inject(.disconnectMidFrame)
            #expect(await TestKit.errorKind { try await client.write([1, 2, 3, 4, 5, 6, 7]) } == .connectionClosed)
            #expect(try await TestKit.read(server) == [1, 2, 3])
            #expect(try await TestKit.read(server) == nil)
            #expect(await TestKit.errorKind { try await client.write([8]) } == .connectionClosed)
            #expect(await TestKit.next(faulty.appliedFaults) == AppliedFault(fault: .disconnectMidFrame, writeIndex: 0))
        }
    }

    @Test("disconnect: the connection closes instead of the write")
    func disconnect() async throws {
        try await withFaultyLink { faulty, _, client, server in
            try await client.write([1])
            faulty.inject(.disconnect)
            #expect(await TestKit.errorKind { try await client.write([2]) } == .connectionClosed)
            #expect(try await TestKit.read(server) == [1])
            #expect(try await TestKit.read(server) == nil)
            #expect(await TestKit.next(faulty.appliedFaults) == AppliedFault(fault: .disconnect, writeIndex: 1))
        }
    }

    @Test("delay: nothing arrives until the injected clock passes the delay")
    func delay() async throws {
        try await withFaultyLink { faulty, clock, client, server in
            var applied = faulty.appliedFaults.makeAsyncIterator()
            faulty.inject(.delay(.seconds(5)))
            let writer = Task { try await client.write([1, 2]) }
            #expect(await applied.next() == AppliedFault(fault: .delay(.seconds(5)), writeIndex: 0))
            await clock.waitForSleepers(count: 1)
            #expect(server.bufferedInboundByteCount == 0)

            clock.advance(by: .seconds(4))
            #expect(clock.sleeperCount == 1)
            #expect(server.bufferedInboundByteCount == 0)

            clock.advance(by: .seconds(1))
            try await writer.value
            #expect(try await TestKit.read(server) == [1, 2])
        }
    }

    @Test("faults also apply to connections the wrapped transport accepts")
    func faultsOnAcceptedConnections() async throws {
        let network = InMemoryNetwork()
        let faulty = FaultInjectingTransport(wrapping: network.transport(for: .watch), clock: ManualClock())
        faulty.inject(.corrupt(byteOffset: 0))
        try await TestKit.withServer(faulty, on: network, role: .watch) { accepted in
            let client = try await network.transport(for: .phone).connect()
            let server = try #require(await TestKit.next(accepted))
            #expect(server.description.hasPrefix("fault-injecting"))
            try await server.write([0x0F])
            #expect(try await TestKit.read(client) == [0xF0])
            // Reads on the wrapped side are untouched.
            try await client.write([0x0F])
            #expect(try await TestKit.read(server) == [0x0F])
            #expect(await faulty.peerPresence() == PeerPresence(listening: false, running: false))
        }
    }
}
