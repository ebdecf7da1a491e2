import Foundation
import Synchronization

/// A list of entries with ids (oldest first) in a ``DurableLog``, for the request queue and the held
/// requests: each save appends what changed since the last one, the entries added at the end and the ids
/// removed, as one line `{"add":[…],"remove":[…]}`, so a queue of 1,000 costs one line per change, not
/// the whole list and two fsyncs. The snapshot line is `{"requests":[…],"version":1}`, what these files
/// held before the log, so earlier files read as they are.
///
/// A save whose list is not the last one with some entries removed and others added at its end (another
/// order), or that follows a failed save, a torn line or no read at all, writes a snapshot instead.
final class DurableList<Entry: Codable & Identifiable & Sendable>: Sendable where Entry.ID == UUID {
    struct Stored: Codable {
        var version: Int
        var requests: [Entry]
    }

    struct Change: Codable {
        var add: [Entry]?
        var remove: [UUID]?
    }

    /// What `load` found.
    enum Loaded {
        case entries([Entry])
        case setAside(path: String, reason: String)
    }

    private let log: DurableLog<Stored, Change>
    /// The ids on disk, in order; nil when that is not known (before a read, after a failed save).
    private let onDisk = Mutex<[UUID]?>(nil)
    /// The file's kind, for a version it does not know ("queue file").
    private let kind: String

    var url: URL { log.url }

    init(url: URL, kind: String) {
        log = DurableLog(url: url)
        self.kind = kind
    }

    /// The entries, oldest first; a missing file is an empty list, an unreadable one (or another
    /// version) is set aside.
    func load(setAsideSuffix: String) -> Loaded {
        switch log.read(setAsideSuffix: setAsideSuffix) {
        case .empty:
            onDisk.withLock { $0 = [] }
            return .entries([])
        case .setAside(let path, let reason):
            onDisk.withLock { $0 = [] }
            return .setAside(path: path, reason: reason)
        case .content(let stored, _) where stored.version != 1:
            // Another version's file is not ours to guess at: kept aside like an unreadable one.
            let aside = url.path + ".corrupt-" + setAsideSuffix
            _ = try? FileManager.default.moveItem(atPath: url.path, toPath: aside)
            onDisk.withLock { $0 = [] }
            return .setAside(path: aside, reason: "unknown \(kind) version \(stored.version)")
        case .content(let stored, let changes):
            var entries = stored.requests
            for change in changes {
                if let remove = change.remove, !remove.isEmpty {
                    let removed = Set(remove)
                    entries.removeAll { removed.contains($0.id) }
                }
                entries += change.add ?? []
            }
            let ids = entries.map(\.id)
            onDisk.withLock { $0 = ids }
            return .entries(entries)
        }
    }

    /// Makes `entries` the list on disk, durably.
    func save(_ entries: [Entry]) throws(WatchConnectionError) {
        let ids = entries.map(\.id)
        let change = onDisk.withLock { onDisk in onDisk.flatMap { Self.change(from: $0, to: entries, ids: ids) } }
        do throws(WatchConnectionError) {
            let snapshot = Stored(version: 1, requests: entries)
            if let change {
                if change.add == nil && change.remove == nil { return }
                try log.append(change, liveCount: entries.count) { snapshot }
            } else {
                try log.write(snapshot)
            }
        } catch {
            onDisk.withLock { $0 = nil }
            throw error
        }
        onDisk.withLock { $0 = ids }
    }

    /// `entries` as a change of `old`, or nil when it is not one (another order).
    private static func change(from old: [UUID], to entries: [Entry], ids: [UUID]) -> Change? {
        let new = Set(ids)
        let oldSet = Set(old)
        let kept = old.filter { new.contains($0) }
        let added = entries.filter { !oldSet.contains($0.id) }
        guard kept + added.map(\.id) == ids else { return nil }
        let removed = old.filter { !new.contains($0) }
        return Change(add: added.isEmpty ? nil : added, remove: removed.isEmpty ? nil : removed)
    }
}
