import ExampleConsole
import Foundation
import KeyedSync
import WatchConnection
import WatchConnectionWCSession
import WatchConnectivity

/// The shopping list both apps share, as two synced keys: what `Examples/ByHand` does with a hand-written
/// handshake, application contexts, messages and userInfo, in a few declarations.
///
/// - `items` (`[String]`, `.phoneWithWatchSync`): the phone owns the list; the watch shows it.
/// - `completed` (`[String]`, `.all`): either app ticks items off; the newest change wins on both.
///
/// Either app may start first, or run while the other is off: KeyedSync's handshake and revisions
/// make both end with the same list. Its ledger and the layer's queue live in the app's state directory.
/// On a phone with several watches it follows a watch switch as Apple's sample app does: the layer's
/// `WCSessionAdapter` calls `activate()` again in `sessionDidDeactivate` (docs/Watches.md).
@MainActor
public final class ShoppingList {
    public let sync: KeyedSync
    public let items: SyncObject<[String]>
    public let completed: SyncObject<[String]>
    private let connection: WatchConnection

    /// The list of the app on `side`, over `WCSession.default` (configured by `WATCHPAIR_*`).
    public init(side: SyncSide) {
        let directory = Self.appDirectory(side: side)
        connection = WatchConnection(session: WCSession.default, configuration: WatchConnectionConfiguration(storageDirectory: directory))
        sync = KeyedSync(connection: connection, side: side, configuration: KeyedSyncConfiguration(storageDirectory: directory))
        items = sync.object("items", as: [String].self, availability: .phoneWithWatchSync)
        completed = sync.object("completed", as: [String].self)
        follow()
    }

    /// `$WATCHPAIR_STATE_DIR/app`: the app's own files, beside WatchPair's store.
    private static func appDirectory(side: SyncSide) -> URL {
        let environment = ProcessInfo.processInfo.environment
        let state = environment["WATCHPAIR_STATE_DIR"] ?? "/var/lib/watchpair/\(side == .phone ? "phoned" : "watchd")"
        let directory = URL(fileURLWithPath: state).appendingPathComponent("app", isDirectory: true)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Reports what arrives and what the sync does, one line each.
    private func follow() {
        let (events, itemUpdates, completedUpdates) = (sync.events, items.updates, completed.updates)
        Task { [weak self] in
            for await event in events {
                Console.report("sync", ["event": event.name, "detail": "\(event)"])
                if case .storageFailed = event { self?.report() }
            }
        }
        Task { [weak self] in
            for await _ in itemUpdates { self?.report() }
        }
        Task { [weak self] in
            for await _ in completedUpdates { self?.report() }
        }
    }

    /// Adds an item (the phone's list).
    public func add(_ item: String) {
        var list = items.value ?? []
        guard !list.contains(item) else { return }
        list.append(item)
        change { () throws(KeyedSyncError) in try items.set(list) }
    }

    /// Ticks an item off (either app).
    public func complete(_ item: String) {
        var done = completed.value ?? []
        guard !done.contains(item) else { return }
        done.append(item)
        change { () throws(KeyedSyncError) in try completed.set(done) }
    }

    /// Sends what still needs a sync (a manual retry; it also runs by itself on reachability).
    public func syncNow() async {
        await sync.syncRegisteredKeysIfNeeded()
        report()
    }

    /// Prints the list as this app holds it, with what still needs a sync.
    public func report() {
        Console.report("list", [
            "items": items.value ?? [], "completed": completed.value ?? [],
            "needSync": sync.keys.filter(\.needSync).map(\.key),
        ])
    }

    private func change(_ body: () throws(KeyedSyncError) -> Void) {
        do {
            try body()
        } catch {
            Console.report("error", ["error": error.description])
        }
        report()
    }
}
