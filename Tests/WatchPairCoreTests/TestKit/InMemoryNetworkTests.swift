import Synchronization
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

@Suite("InMemoryNetwork", .timeLimit(.minutes(3)))
struct InMemoryNetworkTests {
    @Test("connect reaches the serving peer; bytes flow both ways; events tell the story")
    func connectAndServe() async throws {
        let network = InMemoryNetwork()
        var events = network.events().makeAsyncIterator()
        let watch = network.transport(for: .watch)
        let phone = network.transport(for: .phone)

        try await TestKit.withServer(watch, on: network, role: .watch) { accepted in
            #expect(await events.next() == .listening(.watch))
            let client = try await phone.connect()
            #expect(await events.next() == .connected(from: .phone, to: .watch))
            #expect(network.openConnectionCount == 1)
            let server = try #require(await TestKit.next(accepted))
            #expect(client.description.contains("phone→watch"))

            try await client.write([1, 2, 3])
            #expect(try await TestKit.read(server) == [1, 2, 3])
            try await server.write([4])
            #expect(try await TestKit.read(client) == [4])

            await server.close()
            #expect(await events.next() == .closed)
            #expect(network.openConnectionCount == 0)
            #expect(try await TestKit.read(client) == nil)
            #expect(await TestKit.errorKind { try await client.write([5]) } == .connectionClosed)
        }
        #expect(await events.next() == .stoppedListening(.watch))
        #expect(!network.isServing(.watch))
    }

    @Test("connecting to a peer that does not serve fails with peerUnavailable")
    func connectToNonServingPeerFails() async throws {
        let network = InMemoryNetwork()
        let phone = network.transport(for: .phone)
        #expect(await TestKit.errorKind { _ = try await phone.connect() } == .peerUnavailable)
        network.setInstalled(.watch, true)
        #expect(await TestKit.errorKind { _ = try await phone.connect() } == .peerUnavailable)
        #expect(network.openConnectionCount == 0)
    }

    @Test("after serve is cancelled the endpoint is gone and connects fail")
    func stoppedServerRefuses() async throws {
        let network = InMemoryNetwork()
        try await TestKit.withServer(network.transport(for: .phone), on: network, role: .phone) { _ in
            #expect(network.isServing(.phone))
        }
        #expect(!network.isServing(.phone))
        let kind = await TestKit.errorKind { _ = try await network.transport(for: .watch).connect() }
        #expect(kind == .peerUnavailable)
    }

    @Test("a role serves at most once at a time")
    func secondServeFails() async throws {
        let network = InMemoryNetwork()
        try await TestKit.withServer(network.transport(for: .watch), on: network, role: .watch) { _ in
            let kind = await TestKit.errorKind { try await network.transport(for: .watch).serve { _ in } }
            #expect(kind == .listenFailed)
        }
    }

    @Test("presence: installed is the flag or serving; running is serving")
    func installedFlagAndPresence() async throws {
        let network = InMemoryNetwork()
        let phone = network.transport(for: .phone)
        #expect(await phone.peerPresence() == PeerPresence(listening: false, running: false))
        network.setInstalled(.watch, true)
        #expect(await phone.peerPresence() == PeerPresence(listening: true, running: false))
        network.setInstalled(.watch, false)

        try await TestKit.withServer(network.transport(for: .watch), on: network, role: .watch) { _ in
            #expect(await phone.peerPresence() == PeerPresence(listening: true, running: true))
            // The watch's own view of the phone is separate.
            #expect(await network.transport(for: .watch).peerPresence() == PeerPresence(listening: false, running: false))
        }
        #expect(await phone.peerPresence() == PeerPresence(listening: false, running: false))
    }

    @Test("peerChanges yields when the peer's installed flag changes and when it starts or stops serving")
    func peerChanges() async throws {
        let network = InMemoryNetwork()
        let phone = network.transport(for: .phone)
        var changes = phone.peerChanges().makeAsyncIterator()

        network.setInstalled(.watch, true)
        #expect(await changes.next() != nil)
        #expect(await phone.peerPresence() == PeerPresence(listening: true, running: false))

        network.setInstalled(.phone, false)  // Not the peer, and no change: nothing to see.
        try await TestKit.withServer(network.transport(for: .watch), on: network, role: .watch) { _ in
            #expect(await changes.next() != nil)
            #expect(await phone.peerPresence() == PeerPresence(listening: true, running: true))
        }
        #expect(await changes.next() != nil)
        #expect(await phone.peerPresence() == PeerPresence(listening: true, running: false))
    }

    @Test("peerChanges finishes when the consuming task is cancelled")
    func peerChangesFinishOnCancel() async {
        let network = InMemoryNetwork()
        let consumer = Task {
            var count = 0
            for await _ in network.transport(for: .watch).peerChanges() { count += 1 }
            return count
        }
        consumer.cancel()
        #expect(await consumer.value == 0)
    }

    @Test("socket activation: a connect to an installed, stopped peer runs the handler, which starts the server")
    func activationStartsServer() async throws {
        let network = InMemoryNetwork()
        let activations = Mutex(0)
        let server = Mutex<Task<Void, any Error>?>(nil)
        let (accepted, acceptor) = AsyncStream.makeStream(of: (any TransportConnection).self)
        let watch = network.transport(for: .watch)
        network.setInstalled(.watch, true)
        network.setActivationHandler(.watch) {
            activations.withLock { $0 += 1 }
            let task = Task { try await watch.serve { acceptor.yield($0) } }
            server.withLock { $0 = task }
            await network.waitForServing(.watch)
        }

        let client = try await network.transport(for: .phone).connect()
        #expect(activations.withLock { $0 } == 1)
        #expect(network.isServing(.watch))
        let serverEnd = try #require(await TestKit.next(accepted))
        try await client.write([42])
        #expect(try await TestKit.read(serverEnd) == [42])

        // Already serving: a second connect does not activate again.
        _ = try await network.transport(for: .phone).connect()
        #expect(activations.withLock { $0 } == 1)

        let serverTask = try #require(server.withLock { $0 })
        serverTask.cancel()
        try await serverTask.value
        #expect(!network.isServing(.watch))
    }

    @Test("activation fails with peerUnavailable when the handler returns before the peer serves")
    func activationHandlerThatDoesNotServe() async {
        let network = InMemoryNetwork()
        let activations = Mutex(0)
        network.setInstalled(.watch, true)
        network.setActivationHandler(.watch) { activations.withLock { $0 += 1 } }
        let kind = await TestKit.errorKind { _ = try await network.transport(for: .phone).connect() }
        #expect(kind == .peerUnavailable)
        #expect(activations.withLock { $0 } == 1)
    }

    @Test("no activation when the peer is not installed")
    func noActivationWhenNotInstalled() async {
        let network = InMemoryNetwork()
        let activations = Mutex(0)
        network.setActivationHandler(.watch) { activations.withLock { $0 += 1 } }
        let kind = await TestKit.errorKind { _ = try await network.transport(for: .phone).connect() }
        #expect(kind == .peerUnavailable)
        #expect(activations.withLock { $0 } == 0)
    }

    @Test("dropAllConnections closes every connection in both directions; the endpoint keeps serving")
    func dropAllConnections() async throws {
        let network = InMemoryNetwork()
        let phone = network.transport(for: .phone)
        try await TestKit.withServer(network.transport(for: .watch), on: network, role: .watch) { accepted in
            var events = network.events().makeAsyncIterator()
            let clients = [try await phone.connect(), try await phone.connect()]
            var iterator = accepted.makeAsyncIterator()
            var servers: [any TransportConnection] = []
            for _ in clients { servers.append(try #require(await iterator.next())) }
            try await clients[0].write([1])
            #expect(network.openConnectionCount == 2)

            network.dropAllConnections()
            #expect(network.openConnectionCount == 0)
            #expect(await events.next() == .connected(from: .phone, to: .watch))
            #expect(await events.next() == .connected(from: .phone, to: .watch))
            #expect(await events.next() == .closed)
            #expect(await events.next() == .closed)
            for end in clients + servers {
                #expect(try await TestKit.read(end) == nil)
                #expect(await TestKit.errorKind { try await end.write([2]) } == .connectionClosed)
            }

            // Still serving: the link can be made again.
            let again = try await phone.connect()
            try await again.write([3])
            #expect(try await TestKit.read(try #require(await iterator.next())) == [3])
        }
    }
}
