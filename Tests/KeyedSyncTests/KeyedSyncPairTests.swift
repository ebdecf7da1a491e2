import Foundation
import KeyedSync
import Logging
import Testing
import WatchConnection
import WatchConnectionTesting
import WatchPairTesting

/// One app of a pair: its connection and keyed sync, over a `FlakySession`, on the pair's manual clock.
@MainActor
struct SyncApp {
    let connection: WatchConnection
    let sync: KeyedSync

    init(_ side: SyncSide, session: FlakySession, clock: ManualClock, directory: URL? = nil, keys: (KeyedSync) -> Void = { _ in }) {
        let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        connection = WatchConnection(session: session, clock: clock, logger: quiet)
        var configuration = KeyedSyncConfiguration(storageDirectory: directory)
        configuration.maxAutoSyncSize = 64
        sync = KeyedSync(connection: connection, side: side, configuration: configuration, clock: clock, logger: quiet)
        // Registered in the same turn as the connection is made, as an app does: before any session event.
        keys(sync)
    }
}

struct Profile: Codable, Sendable, Hashable {
    var name: String
}

@MainActor
@Suite("keyed sync: two apps", .timeLimit(.minutes(3)))
struct KeyedSyncPairTests {
    static func registerProfile(_ sync: KeyedSync) {
        sync.register("profile", availability: .phoneWithWatchSync)
        sync.register("theme")
    }

    /// Waits (bounded by the suite's time limit, never by sleeping) until `sync` reports an event matching.
    nonisolated static func next(_ events: AsyncStream<KeyedSyncEvent>, _ matches: @Sendable (KeyedSyncEvent) -> Bool) async {
        for await event in events where matches(event) { return }
    }

    /// Steps `clock` past every timer that is armed, again and again, until `events` yields a match.
    static func advance(_ clock: ManualClock, until events: AsyncStream<KeyedSyncEvent>, _ matches: @escaping @Sendable (KeyedSyncEvent) -> Bool) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await next(events, matches) }
            group.addTask {
                while !Task.isCancelled {
                    await clock.waitForSleepers(count: 1)
                    if let deadline = clock.nextDeadline { clock.advance(to: deadline) }
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("keyedsync-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("a subscriber that reads late still gets every event of many keys' snapshots")
    func eventsOfManyKeys() async throws {
        let clock = ManualClock()
        let (phoneSession, _) = FlakySession.pair(seed: 1, clock: clock)
        let phone = SyncApp(.phone, session: phoneSession, clock: clock)
        let events = phone.sync.events
        // The n-th change sends a snapshot of n keys: 30 changes report 465 syncSent at once.
        for n in 0..<30 {
            phone.sync.register("k\(n)")
            try phone.sync.set(n, for: "k\(n)")
        }
        phone.sync.close()
        var sent = 0
        for await event in events {
            if case .sent = event { sent += 1 }
        }
        #expect(sent == 30 * 31 / 2)
    }

    @Test("batch subscribers get one array per change of the ledger, the same events in the same order")
    func eventBatches() async throws {
        let clock = ManualClock()
        let (phoneSession, _) = FlakySession.pair(seed: 1, clock: clock)
        let phone = SyncApp(.phone, session: phoneSession, clock: clock)
        let (events, batches) = (phone.sync.events, phone.sync.eventBatches)
        for n in 0..<5 {
            phone.sync.register("k\(n)")
            try phone.sync.set(n, for: "k\(n)")
        }
        phone.sync.close()
        var one: [KeyedSyncEvent] = []
        for await event in events { one.append(event) }
        var together: [[KeyedSyncEvent]] = []
        for await batch in batches { together.append(batch) }
        // The n-th change sends a snapshot of n keys: n syncSent in one array.
        #expect(together.map(\.count) == [1, 2, 3, 4, 5])
        #expect(together.flatMap { $0 } == one)
    }

    @Test("the phone's change reaches a running watch, and the phone sees it confirmed")
    func liveChange() async throws {
        let clock = ManualClock()
        let (phoneSession, watchSession) = FlakySession.pair(seed: 1, clock: clock)
        let phone = SyncApp(.phone, session: phoneSession, clock: clock, keys: Self.registerProfile)
        let watch = SyncApp(.watch, session: watchSession, clock: clock, keys: Self.registerProfile)
        let profile = watch.sync.object("profile", as: Profile.self, availability: .phoneWithWatchSync)
        var updates = profile.updates.makeAsyncIterator()
        let phoneEvents = phone.sync.events
        try phone.sync.set(Profile(name: "Ada"), for: "profile")
        #expect(await updates.next() == Profile(name: "Ada"))
        #expect(profile.value == Profile(name: "Ada"))
        await Self.next(phoneEvents) { $0 == .confirmed(key: "profile", revision: SyncRevision(counter: 1, writer: .phone)) }
        #expect(phone.sync.status(of: "profile")?.needSync == false)
        #expect(phone.sync.status(of: "profile")?.lastSyncTime != nil)
    }

    @Test("a push the peer could not confirm is sent again while the peer stays reachable")
    func retriedWhileReachable() async throws {
        let clock = ManualClock()
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (phoneSession, watchSession) = FlakySession.pair(seed: 6, clock: clock)
        let phone = SyncApp(.phone, session: phoneSession, clock: clock, keys: Self.registerProfile)
        let watch = SyncApp(.watch, session: watchSession, clock: clock, directory: directory, keys: Self.registerProfile)
        let events = phone.sync.events
        // The watch cannot write its ledger (its directory is now a file), so its handler throws and
        // the phone's push fails, though both apps stay up and reachable.
        try FileManager.default.removeItem(at: directory)
        #expect(FileManager.default.createFile(atPath: directory.path, contents: nil))
        try phone.sync.set("dusk", for: "theme")
        await Self.next(events) { if case .unconfirmed = $0 { true } else { false } }
        #expect(phone.sync.status(of: "theme")?.needSync == true)
        try FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // No activation and no change of reachability comes: only the retry timer, armed for
        // `retryDelay` (2 s) after the failure, sends it again. Step exactly to it.
        let retry = clock.now.advanced(by: .seconds(2))
        await clock.waitForSleepers(until: retry)
        clock.advance(to: retry)
        await Self.next(events) { if case .confirmed(key: "theme", _) = $0 { true } else { false } }
        #expect(phone.sync.status(of: "theme")?.needSync == false)
        #expect(try watch.sync.value(String.self, for: "theme") == "dusk")
    }

    @Test("watch first: its handshake waits for the phone app, which answers when it runs")
    func watchFirst() async throws {
        let clock = ManualClock()
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (phoneSession, watchSession) = FlakySession.pair(seed: 2, clock: clock)
        // The phone app ran before and set its keys (its ledger is on disk), then stopped.
        do {
            let (earlierPhone, _) = FlakySession.pair(seed: 3, clock: clock)
            let before = SyncApp(.phone, session: earlierPhone, clock: clock, directory: directory, keys: Self.registerProfile)
            try before.sync.set(Profile(name: "Grace"), for: "profile")
        }
        phoneSession.setReachable(false)
        let watch = SyncApp(.watch, session: watchSession, clock: clock, keys: Self.registerProfile)
        var updates = watch.sync.updates(of: "profile").makeAsyncIterator()
        // The watch's request went by userInfo and waits at the phone's session; the phone app starts.
        let phone = SyncApp(.phone, session: phoneSession, clock: clock, directory: directory, keys: Self.registerProfile)
        let received = try #require(await updates.next())
        #expect(try JSONDecoder().decode(Profile.self, from: received) == Profile(name: "Grace"))
        _ = phone
    }

    @Test("phone first: the watch's handshake at launch fetches what the phone holds")
    func phoneFirst() async throws {
        let clock = ManualClock()
        let (phoneSession, watchSession) = FlakySession.pair(seed: 4, clock: clock)
        let phone = SyncApp(.phone, session: phoneSession, clock: clock, keys: Self.registerProfile)
        try phone.sync.set("dark", for: "theme")
        try phone.sync.set(Profile(name: "Lin"), for: "profile")
        let watch = SyncApp(.watch, session: watchSession, clock: clock, keys: Self.registerProfile)
        var updates = watch.sync.updates(of: "profile").makeAsyncIterator()
        _ = await updates.next()
        #expect(try watch.sync.value(Profile.self, for: "profile") == Profile(name: "Lin"))
        #expect(try watch.sync.value(String.self, for: "theme") == "dark")
    }

    @Test("phone first: the watch's launch gets the snapshot from the phone's pending context and its answer, no push more")
    func phoneFirstPushesOnce() async throws {
        let clock = ManualClock()
        let (phoneSession, watchSession) = FlakySession.pair(seed: 4, clock: clock)
        let phone = SyncApp(.phone, session: phoneSession, clock: clock, keys: Self.registerProfile)
        let phoneEvents = phone.sync.events
        // Activated, so the changes' pushes go out (before, they fail and activation pushes them).
        try await phone.connection.waitForActivation()
        try phone.sync.set("dark", for: "theme")
        try phone.sync.set(Profile(name: "Lin"), for: "profile")
        // The watch comes up while the second push waits for its confirmation: the phone's reachability
        // and the watch's handshake would each push the same snapshot again.
        let watch = SyncApp(.watch, session: watchSession, clock: clock, keys: Self.registerProfile)
        var sent = 0
        var confirmed: Set<String> = []
        var asked = false
        var marking = false
        var marked = false
        for await event in phoneEvents {
            switch event {
            case .sent: sent += 1
            case .confirmed(let key, _): confirmed.insert(key)
            case .requested(by: .watch): asked = true
            case .notSent(key: "marker", _): marked = true
            default: break
            }
            if marked { break }
            if asked, confirmed == ["profile", "theme"], !marking {
                marking = true
                // A value too large to send reports at once, after whatever the answer emitted.
                phone.sync.register("marker")
                try phone.sync.set(String(repeating: "x", count: 100), for: "marker")
            }
        }
        // The two changes' own pushes: 1 + 2 keys sent, nothing more.
        #expect(sent == 3)
        #expect(try watch.sync.value(Profile.self, for: "profile") == Profile(name: "Lin"))
        #expect(try watch.sync.value(String.self, for: "theme") == "dark")
        #expect(phone.sync.status(of: "theme")?.needSync == false)
    }

    @Test("needSync and lastSyncTime survive a restart, and an unconfirmed key is retried on reachability")
    func persistedRetry() async throws {
        let clock = ManualClock()
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (phoneSession, watchSession) = FlakySession.pair(seed: 5, clock: clock)
        watchSession.activationError = FlakySession.error(7001)
        do {
            let phone = SyncApp(.phone, session: phoneSession, clock: clock, directory: directory, keys: Self.registerProfile)
            let events = phone.sync.events
            try phone.sync.set("light", for: "theme")
            // Nobody confirms: the watch app never activated. The pushes' waits end on the manual clock
            // (the activation's retry of needSync keys may supersede the first push: only the newest reports).
            await Self.advance(clock, until: events) { if case .unconfirmed = $0 { true } else { false } }
            #expect(phone.sync.status(of: "theme")?.needSync == true)
        }
        watchSession.activationError = nil
        let restarted = SyncApp(.phone, session: phoneSession, clock: clock, directory: directory, keys: Self.registerProfile)
        #expect(restarted.sync.status(of: "theme")?.needSync == true, "needSync was persisted")
        let events = restarted.sync.events
        let watch = SyncApp(.watch, session: watchSession, clock: clock, keys: Self.registerProfile)
        await Self.next(events) { if case .confirmed(key: "theme", _) = $0 { true } else { false } }
        #expect(restarted.sync.status(of: "theme")?.needSync == false)
        #expect(try watch.sync.value(String.self, for: "theme") == "light")
    }

    @Test("an unregistered key is refused by set, and a corrupt ledger is set aside")
    func badInput() async throws {
        let clock = ManualClock()
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("{not json".utf8).write(to: directory.appendingPathComponent("keyedsync.json"))
        let (phoneSession, _) = FlakySession.pair(seed: 6, clock: clock)
        let phone = SyncApp(.phone, session: phoneSession, clock: clock, directory: directory)
        #expect(throws: KeyedSyncError.keyNotRegistered("nope")) { try phone.sync.set(1, for: "nope") }
        let setAside = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".corrupt-") }
        #expect(setAside.count == 1)
        phone.sync.register("theme")
        try phone.sync.set("dark", for: "theme")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("keyedsync.json").path))
    }
}

