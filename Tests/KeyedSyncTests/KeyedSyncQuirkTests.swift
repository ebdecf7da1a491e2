import Foundation
import KeyedSync
import Synchronization
import Testing
import WatchConnection
import WatchConnectionTesting
import WatchPairTesting

/// The quirks of background content, against keyed sync: code written naively against Apple's
/// documentation fails under each, and keyed sync's revisions hold. docs/Quirks.md names these tests.
@MainActor
@Suite("Quirks: naive code fails, keyed sync holds", .timeLimit(.minutes(3)))
struct KeyedSyncQuirkTests {
    /// A naive watch app: applies every `theme` it receives (context, userInfo or message) and counts
    /// the changes it shows; sets its own theme locally.
    final class NaiveWatch: Sendable {
        private let state = Mutex<(theme: String?, changes: Int)>((nil, 0))
        let session: FlakySession

        init(_ session: FlakySession) {
            self.session = session
            session.activate { [self] event in
                switch event {
                case .applicationContext(let values), .userInfo(let values): apply(values["theme"])
                case .message(let values, _): apply(values["theme"])
                default: break
                }
            }
        }

        func apply(_ theme: String?) {
            guard let theme else { return }
            state.withLock { $0 = (theme, $0.changes + 1) }
        }

        var theme: String? { state.withLock { $0.theme } }
        var changes: Int { state.withLock { $0.changes } }
    }

    static func registerTheme(_ sync: KeyedSync) { sync.register("theme") }

    nonisolated static func isReceived(_ event: KeyedSyncEvent) -> Bool {
        if case .received(key: "theme", _) = event { true } else { false }
    }

    /// Waits until `sync` ignores an older theme, checks that it still holds "light", closes it and
    /// returns how many theme values `updates` reported meanwhile.
    static func themeAfterIgnoring(
        _ sync: KeyedSync, _ events: AsyncStream<KeyedSyncEvent>, _ updates: AsyncStream<Data>
    ) async throws -> Int {
        await KeyedSyncPairTests.next(events) { if case .ignoredOlder(key: "theme", _, _) = $0 { true } else { false } }
        #expect(try sync.value(String.self, for: "theme") == "light")
        sync.close()
        var changes = 0
        for await _ in updates { changes += 1 }
        return changes
    }

    @Test("contextReplay: a relaunched naive watch rolls back to the replayed context; keyed sync keeps its newer revision")
    func contextReplay() async throws {
        let clock = ManualClock()
        let (phoneSession, watchSession) = FlakySession.pair(seed: 21, clock: clock)
        watchSession.setQuirk(.contextReplay)
        _ = SilentApp.activate(phoneSession)
        var naive = NaiveWatch(watchSession)
        try phoneSession.updateApplicationContext(["theme": "dark"])
        naive.apply("light")  // the user changes it on the watch
        naive = NaiveWatch(watchSession)  // relaunch: the last context arrives again
        naive.apply(nil)
        #expect(naive.theme == "dark", "rolled back to the phone's older value")

        let directory = try KeyedSyncPairTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (phoneSync, watchSync) = FlakySession.pair(seed: 22, clock: clock)
        watchSync.setQuirk(.contextReplay)
        let phone = SyncApp(.phone, session: phoneSync, clock: clock, keys: Self.registerTheme)
        do {
            let watch = SyncApp(.watch, session: watchSync, clock: clock, directory: directory, keys: Self.registerTheme)
            let events = watch.sync.events
            try phone.sync.set("dark", for: "theme")
            await KeyedSyncPairTests.next(events, Self.isReceived)
            try watch.sync.set("light", for: "theme")
            watch.sync.close()
            await watch.connection.close()
        }
        let replays = watchSync.injections(of: .contextReplay)
        let relaunched = SyncApp(.watch, session: watchSync, clock: clock, directory: directory, keys: Self.registerTheme)
        let updates = relaunched.sync.updates(of: "theme")
        let events = relaunched.sync.events
        #expect(watchSync.injections(of: .contextReplay) == replays + 1, "the relaunch replayed the phone's context")
        let changes = try await Self.themeAfterIgnoring(relaunched.sync, events, updates)
        #expect(changes == 0, "no change callback for the replayed snapshot")
    }

    @Test("installedFlapping: a naive phone that syncs only when the watch app is installed skips; keyed sync pushes")
    func installedFlapping() async throws {
        let clock = ManualClock()
        let (phoneSession, watchSession) = FlakySession.pair(seed: 23, clock: clock)
        phoneSession.setQuirk(.installedFlapping, try QuirkSetting(delay: .seconds(2) ... .seconds(2)))
        let naive = NaiveWatch(watchSession)
        _ = SilentApp.activate(phoneSession)
        // Naive: at launch, push the state only if the watch app is installed.
        if phoneSession.isCounterpartAppInstalled { try phoneSession.updateApplicationContext(["theme": "dark"]) }
        #expect(naive.theme == nil, "the launch sync was skipped")

        let (phoneSync, watchSync) = FlakySession.pair(seed: 24, clock: clock)
        phoneSync.setQuirk(.installedFlapping, try QuirkSetting(delay: .seconds(2) ... .seconds(2)))
        let watch = SyncApp(.watch, session: watchSync, clock: clock, keys: Self.registerTheme)
        let events = watch.sync.events
        let phone = SyncApp(.phone, session: phoneSync, clock: clock, keys: Self.registerTheme)
        #expect(!phoneSync.isCounterpartAppInstalled)
        try phone.sync.set("dark", for: "theme")
        await KeyedSyncPairTests.next(events, Self.isReceived)
        #expect(try watch.sync.value(String.self, for: "theme") == "dark")
    }

    @Test("delayedDelivery: a late background value overwrites a newer live one in naive code; keyed sync ignores it")
    func delayedDelivery() async throws {
        let clock = ManualClock()
        let (phoneSession, watchSession) = FlakySession.pair(seed: 25, clock: clock)
        watchSession.setQuirk(.delayedDelivery, try QuirkSetting(count: 1, delay: .seconds(5) ... .seconds(5)))
        let naive = NaiveWatch(watchSession)
        _ = SilentApp.activate(phoneSession)
        try phoneSession.transferUserInfo(["theme": "dark"])  // in the background
        phoneSession.sendMessage(["theme": "light"], replyHandler: nil, errorHandler: { _ in })  // then live
        #expect(naive.theme == "light")
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(5))
        while naive.changes < 2 { await Task.yield() }
        #expect(naive.theme == "dark", "the older value arrived last and won")

        let (phoneSync, watchSync) = FlakySession.pair(seed: 26, clock: clock)
        let phone = SyncApp(.phone, session: phoneSync, clock: clock, keys: Self.registerTheme)
        let watch = SyncApp(.watch, session: watchSync, clock: clock, keys: Self.registerTheme)
        let events = watch.sync.events
        watchSync.setQuirk(.delayedDelivery, try QuirkSetting(count: 1, delay: .seconds(5) ... .seconds(5)))
        try phone.sync.set("dark", for: "theme")  // its push (the context) is held back 5 s at the watch
        try phone.sync.set("light", for: "theme")
        await watch.sync.requestSnapshot()  // live: the phone answers with "light"
        #expect(try watch.sync.value(String.self, for: "theme") == "light")
        #expect(watchSync.injections(of: .delayedDelivery) == 1)
        let updates = watch.sync.updates(of: "theme")
        clock.advance(by: .seconds(5))
        let changes = try await Self.themeAfterIgnoring(watch.sync, events, updates)
        #expect(changes == 0, "the late, older value changed nothing")
    }
}

/// Activates a session whose app ignores what arrives (the sending side of a naive scenario).
enum SilentApp {
    static func activate(_ session: FlakySession) -> FlakySession {
        session.activate { _ in }
        return session
    }
}
