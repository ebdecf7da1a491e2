import Foundation
import Testing
import WatchConnection
import WatchConnectionTesting
import WatchPairTesting

/// The persisted request queue, over `FlakySession`s on the manual clock.
@MainActor
@Suite("WatchConnection request queue", .timeLimit(.minutes(3)))
struct WatchConnectionQueueTests {
    /// A link whose peer has gone out of reach, the phone's queue in `directory`.
    func unreachableLink(_ directory: URL? = nil, capacity: Int = 100, saveBatch: Int = 256) async throws -> TestLink {
        var configuration = WatchConnectionConfiguration(storageDirectory: directory)
        configuration.queueCapacity = capacity
        configuration.flushSaveBatch = saveBatch
        let link = try await TestLink(.flaky, phoneConfiguration: configuration)
        try await link.makePeerUnreachable()
        return link
    }

    /// Sends a messageOnly `Greet` per name from the unreachable phone, each queued (its `requestQueued`
    /// seen) before the next is sent, so the queue holds them in this order.
    func queue(_ names: [String], on phone: WatchConnection) async -> [Task<Greeting, any Error>] {
        let events = phone.diagnosticEvents
        var sends: [Task<Greeting, any Error>] = []
        for (index, name) in names.enumerated() {
            sends.append(Task { try await phone.send(Greet(name: name), strategy: .messageOnly) })
            _ = await first(events) { $0 == .requestQueued(type: "Greet", size: index + 1) }
        }
        return sends
    }

    /// Active mode and the peer reachable again: the queue flushes.
    func flush(_ link: TestLink) async {
        await link.phone.connect()
        link.flaky?.phone.setReachable(true)
    }

    @Test("messageOnly, queued mode, unreachable: queued on disk, flushed in order when reachable in active mode")
    func queuedThenFlushed() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = try await unreachableLink(directory)
        let order = link.watch.registerNameRecorder()
        let phone = link.phone
        let sends = await queue(["one", "two"], on: phone)
        let (one, two) = (sends[0], sends[1])
        #expect(phone.pendingRequestCount == 2)
        #expect(persistedQueue(directory).count == 2)
        await flush(link)
        #expect(try await one.value.text == "one")
        #expect(try await two.value.text == "two")
        var iterator = order.makeAsyncIterator()
        #expect(await iterator.next() == "one")
        #expect(await iterator.next() == "two")
        #expect(phone.pendingRequestCount == 0)
        #expect(persistedQueue(directory).isEmpty)
    }

    @Test("close(): every send and waiter ends with .cancelled, a queued request stays on disk, no task runs, later sends fail")
    func closeEndsEverything() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = try await unreachableLink(directory)
        let phone = link.phone
        let queued = Task { try await phone.send(Greet(name: "kept"), strategy: .messageOnly) }
        _ = await first(phone.diagnosticEvents) { if case .requestQueued = $0 { true } else { false } }
        let waiting = Task { try await phone.waitForConnection() }
        #expect(phone.runningTaskCount > 0)

        await phone.close()
        #expect(phone.runningTaskCount == 0)
        await #expect(throws: WatchConnectionError.cancelled) { try await queued.value }
        await #expect(throws: WatchConnectionError.cancelled) { try await waiting.value }
        #expect(persistedQueue(directory).map(\.requestType) == ["Greet"], "a queued request outlives its connection, as after a kill")
        await #expect(throws: WatchConnectionError.cancelled) { try await phone.send(Greet(name: "late")) }
        #expect(phone.runningTaskCount == 0)
    }

    @Test("during a flush the requests stay on disk until handed on, and leave it in a batch: a kill -9 mid-flush loses none")
    func flushKeepsTheFile() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = try await unreachableLink(directory)
        let phone = link.phone
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let (started, announce) = AsyncStream.makeStream(of: String.self)
        link.watch.register(Greet.self) { request in
            announce.yield(request.name)
            for await _ in gate { break }
            return Greeting(text: request.name)
        }
        let sends = await queue(["one", "two"], on: phone)
        let (one, two) = (sends[0], sends[1])
        await flush(link)
        var starts = started.makeAsyncIterator()
        #expect(await starts.next() == "one")
        #expect(persistedQueue(directory).count == 2, "the flush took the requests off the disk before they went")
        open.yield()
        #expect(try await one.value.text == "one")
        #expect(persistedQueue(directory).count == 2, "the answered one leaves the disk with its batch (a repeat is answered from its record)")
        #expect(await starts.next() == "two")
        open.yield()
        #expect(try await two.value.text == "two")
        #expect(persistedQueue(directory).isEmpty, "the flush's end saved the batch")
    }

    @Test("a flush saves the removal of handed-on requests once per batch, not once per request")
    func flushSavesInBatches() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let batch = 8, count = batch + 6
        let link = try await unreachableLink(directory, saveBatch: batch)
        let phone = link.phone
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let (started, announce) = AsyncStream.makeStream(of: Int.self)
        link.watch.register(Greet.self) { request in
            let number = Int(request.name) ?? 0
            // The handler stops at the batch's last request and at the first after it.
            if number == batch || number == batch + 1 {
                announce.yield(number)
                for await _ in gate { break }
            }
            return Greeting(text: request.name)
        }
        let sends = await queue((1...count).map(String.init), on: phone)
        await flush(link)
        var starts = started.makeAsyncIterator()
        #expect(await starts.next() == batch)
        #expect(persistedQueue(directory).count == count, "\(batch - 1) handed on, none of them saved yet")
        open.yield()
        #expect(await starts.next() == batch + 1)
        #expect(persistedQueue(directory).count == count - batch, "the batch of \(batch) left the disk in one save")
        open.yield()
        for send in sends { _ = try await send.value }
        #expect(persistedQueue(directory).isEmpty)
    }

    @Test("a request cancelled while its flush runs is not sent")
    func cancelledDuringFlush() async throws {
        let link = try await unreachableLink()
        let phone = link.phone
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let (started, announce) = AsyncStream.makeStream(of: String.self)
        link.watch.register(Greet.self) { request in
            announce.yield(request.name)
            if request.name == "one" { for await _ in gate { break } }
            return Greeting(text: request.name)
        }
        let sends = await queue(["one", "two"], on: phone)
        let (one, two) = (sends[0], sends[1])
        await flush(link)
        var starts = started.makeAsyncIterator()
        #expect(await starts.next() == "one")
        phone.cancelQueuedRequest(id: try #require(phone.queuedRequests.last?.id))
        await #expect(throws: WatchConnectionError.cancelled) { try await two.value }
        open.yield()
        #expect(try await one.value.text == "one")
        #expect(try await phone.send(Greet(name: "three"), strategy: .messageOnly).text == "three")
        #expect(await starts.next() == "three", "the cancelled request was sent")
    }

    @Test("the queue survives the app's death: the file holds it once queued; a new process sends it once")
    func survivesRestart() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = try await unreachableLink(directory)
        let phone = link.phone
        _ = Task { try await phone.send(Greet(name: "kept"), strategy: .messageOnly) }
        _ = await first(phone.diagnosticEvents) { if case .requestQueued = $0 { true } else { false } }
        let queuedID = try #require(phone.queuedRequests.first?.id)

        // What a process killed now leaves: the file. A new process on the same directory.
        let clock = ManualClock()
        let (phoneSession, watchSession) = FlakySession.pair(seed: 3, clock: clock)
        let restarted = WatchConnection(session: phoneSession, configuration: WatchConnectionConfiguration(storageDirectory: directory), clock: clock)
        let watch = WatchConnection(session: watchSession, clock: clock)
        let runs = Counter()
        watch.registerGreeter(runs)
        #expect(restarted.queuedRequests.map(\.id) == [queuedID])
        try await restarted.waitForConnection()
        let events = restarted.diagnosticEvents
        await restarted.connect()
        _ = await first(events) { if case .messageSent = $0 { true } else { false } }
        #expect(runs.count == 1)
        #expect(restarted.pendingRequestCount == 0)
    }

    @Test("kill -9 between queueing and flush: the file holds the request; the next process flushes it once")
    func persistedAcrossConnections() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Written as a process killed right after queueing leaves it.
        let envelope = try WireEnvelope.encode(
            WireEnvelope.Header(v: 1, kind: .request, id: UUID(), type: "Greet", reply: true), body: Greet(name: "restored"))
        let clock = ManualClock()
        let origin = Date(timeIntervalSince1970: 1_800_000_000)
        try RequestQueueFile(directory: directory).save([
            QueuedRequest(id: UUID(), requestType: "Greet", strategy: .messageOnly, envelope: envelope, enqueuedAt: .seconds(1_800_000_000 - 60))
        ])
        let (phoneSession, watchSession) = FlakySession.pair(seed: 3, clock: clock)
        var configuration = WatchConnectionConfiguration(storageDirectory: directory)
        configuration.wallClockOrigin = origin
        let phone = WatchConnection(session: phoneSession, configuration: configuration, clock: clock)
        let watch = WatchConnection(session: watchSession, clock: clock)
        let names = watch.registerNameRecorder()
        #expect(phone.pendingRequestCount == 1)
        try await phone.waitForConnection()
        let events = phone.diagnosticEvents
        await phone.connect()
        var iterator = names.makeAsyncIterator()
        #expect(await iterator.next() == "restored")
        // It leaves the queue (and the file) once answered, not when the flush starts.
        _ = await first(events) { if case .messageSent = $0 { true } else { false } }
        #expect(phone.pendingRequestCount == 0)
        #expect(persistedQueue(directory).isEmpty)
    }

    @Test("a corrupt queue file is reported and set aside, never a crash; the next request works")
    func corruptFile() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("{\"version\":1,\"requests\":[{\"id\":".utf8).write(to: RequestQueueFile(directory: directory).url)
        let link = try await TestLink(.flaky, phoneConfiguration: WatchConnectionConfiguration(storageDirectory: directory))
        let reported = await first(link.phone.diagnosticEvents) { if case .storageFileSetAside = $0 { true } else { false } }
        guard case .storageFileSetAside(let path, let reason)? = reported else {
            Issue.record("not reported")
            return
        }
        #expect(path.contains(".corrupt-") && FileManager.default.fileExists(atPath: path))
        #expect(!reason.isEmpty)
        link.watch.registerGreeter(Counter())
        #expect(try await link.phone.send(Greet(name: "after")).text == "Hello, after")
    }

    @Test("full queue: the oldest is dropped with requestDropped and its sender gets .dropped")
    func dropOldest() async throws {
        let link = try await unreachableLink(capacity: 1)
        let phone = link.phone
        let events = phone.diagnosticEvents
        let oldest = Task { try await phone.send(Greet(name: "old"), strategy: .messageOnly) }
        _ = await first(events) { if case .requestQueued = $0 { true } else { false } }
        let newest = Task { try await phone.send(Greet(name: "new"), strategy: .messageOnly) }
        await #expect(throws: WatchConnectionError.dropped) { try await oldest.value }
        _ = await first(events) { if case .requestDropped(let type, _) = $0 { type == "Greet" } else { false } }
        #expect(phone.pendingRequestCount == 1)
        newest.cancel()
        await #expect(throws: WatchConnectionError.cancelled) { try await newest.value }
    }

    @Test("a queued request expires after 1 h on the clock: requestExpired, .expired")
    func expiry() async throws {
        let link = try await unreachableLink()
        let phone = link.phone
        let events = phone.diagnosticEvents
        let send = Task { try await phone.send(Greet(name: "late"), strategy: .messageOnly) }
        _ = await first(events) { if case .requestQueued = $0 { true } else { false } }
        await link.clock.waitForSleepers(count: 1)
        link.clock.advance(by: .seconds(3599))
        #expect(phone.pendingRequestCount == 1)
        link.clock.advance(by: .seconds(1))
        await #expect(throws: WatchConnectionError.expired) { try await send.value }
        #expect(phone.pendingRequestCount == 0)
        _ = await first(events) { if case .requestExpired = $0 { true } else { false } }
    }

    @Test("cancel one by id, cancel all, disconnect: each sender gets .cancelled")
    func cancelling() async throws {
        let link = try await unreachableLink()
        let phone = link.phone
        let events = phone.diagnosticEvents
        var sends: [Task<Greeting, any Error>] = []
        for size in 1...3 {
            sends.append(Task { try await phone.send(Greet(name: "\(size)"), strategy: .messageOnly) })
            _ = await first(events) { $0 == .requestQueued(type: "Greet", size: size) }
        }
        phone.cancelQueuedRequest(id: phone.queuedRequests[1].id)
        await #expect(throws: WatchConnectionError.cancelled) { try await sends[1].value }
        #expect(phone.pendingRequestCount == 2)
        phone.cancelAllQueuedRequests()
        await #expect(throws: WatchConnectionError.cancelled) { try await sends[0].value }
        await #expect(throws: WatchConnectionError.cancelled) { try await sends[2].value }
        let another = Task { try await phone.send(Greet(name: "4"), strategy: .messageOnly) }
        _ = await first(events) { if case .requestQueued = $0 { true } else { false } }
        await phone.connect()
        #expect(phone.connectionMode == .active)
        phone.disconnect()
        #expect(phone.connectionMode == .passive)
        await #expect(throws: WatchConnectionError.cancelled) { try await another.value }
    }

    @Test("fallback strategy while unreachable: its channel at once (fallbackUsed), no queue, handler once",
          arguments: [(DeliveryStrategy.messageWithUserInfoFallback, DeliveryMethod.userInfo), (.messageWithContextFallback, .context)])
    func fallbackWhenUnreachable(strategy: DeliveryStrategy, channel: DeliveryMethod) async throws {
        let link = try await unreachableLink()
        let runs = Counter()
        link.watch.registerGreeter(runs)
        let events = link.phone.diagnosticEvents
        #expect(try await link.phone.send(Greet(name: "bg"), strategy: strategy).text == "Hello, bg")
        #expect(runs.count == 1 && link.phone.pendingRequestCount == 0)
        #expect(await first(events) { if case .fallbackUsed = $0 { true } else { false } } == .fallbackUsed(from: .message, to: channel))
        #expect(link.flaky?.phone.history.isEmpty == true)
    }

    @Test("sendWhenReady waits for the connection on the clock, then sends")
    func sendWhenReady() async throws {
        let link = try await unreachableLink()
        let runs = Counter()
        link.watch.registerGreeter(runs)
        let phone = link.phone
        let send = Task { try await phone.sendWhenReady(Greet(name: "later"), connectionTimeout: .seconds(30)) }
        await link.clock.waitForSleepers(count: 1)  // the connection wait's timeout
        #expect(runs.count == 0)
        link.flaky?.phone.setReachable(true)
        #expect(try await send.value.text == "Hello, later")
        #expect(runs.count == 1)
    }

    @Test("sendWhenReady gives up with .timeout when the connection does not come")
    func sendWhenReadyTimesOut() async throws {
        let link = try await unreachableLink()
        let phone = link.phone
        let send = Task { try await phone.sendWhenReady(Greet(name: "never"), connectionTimeout: .seconds(30)) }
        await link.clock.waitForSleepers(count: 1)
        link.clock.advance(by: .seconds(30))
        await #expect(throws: WatchConnectionError.timeout) { try await send.value }
    }

    @Test("phantom reachability during a flush: re-queued once, not flushed again until reachability changes")
    func noFlushStorm() async throws {
        let link = try await unreachableLink()
        let (phoneSession, _) = try #require(link.flaky)
        link.watch.registerGreeter(Counter())
        let phone = link.phone
        let events = phone.diagnosticEvents
        let send = Task { try await phone.send(Greet(name: "q"), strategy: .messageOnly) }
        _ = await first(events) { $0 == .requestQueued(type: "Greet", size: 1) }
        phoneSession.script(Array(repeating: .fail(code: 7007), count: 3))
        await phone.connect()
        phoneSession.setReachable(true)
        for _ in 0..<2 {
            await link.clock.waitForSleepers(count: 2)  // the flush's timeout and the retry delay
            link.clock.advance(by: .milliseconds(200))
        }
        _ = await first(events) { $0 == .requestQueued(type: "Greet", size: 1) }
        #expect(phoneSession.history.count == 3)
        #expect(phone.pendingRequestCount == 1)
        try await link.makePeerUnreachable()
        phoneSession.setReachable(true)
        #expect(try await send.value.text == "Hello, q")
        #expect(phoneSession.history.count == 4)
    }
}
