import Foundation

/// The keyed-sync decisions of one app, a pure state machine (docs/KeyedSync.md): which revision a change gets,
/// what a snapshot holds, which received values win, and which keys still need a sync.
///
/// Everything sent is a whole snapshot of the published entries: it travels as the application context,
/// where a newer context replaces an older one, so a snapshot of only the changed key would undo the
/// others. Received entries are applied only when newer than what is held, so an old queued snapshot that
/// arrives late changes nothing; every change raises the revision, so setting a key back to an earlier
/// value still makes a different context (the identical-context rule never swallows it). A snapshot
/// that an automatic trigger asks for while a push of the same snapshot still waits for its confirmation
/// is not sent again: that push's context is the peer's current one, and it arrives or fails on its own.
public struct SyncLedger: Sendable, Hashable {
    /// Which app this is.
    public let side: SyncSide
    /// The largest value `.automaticSmall` sends, in bytes of JSON.
    public let maxAutoSyncSize: Int
    /// Every key this app knows, registered or received.
    public private(set) var records: [String: SyncKeyRecord]
    /// The snapshot of the newest push still waiting for the peer's confirmation: every `send` is
    /// pushed, so it is in flight from the action that returned it until ``Event/pushEnded(_:)``. In
    /// memory only: an app that restarts has nothing in flight, so it pushes again.
    public private(set) var pushing: [SyncEntry]?

    public init(side: SyncSide, maxAutoSyncSize: Int, records: [String: SyncKeyRecord] = [:]) {
        self.side = side
        self.maxAutoSyncSize = maxAutoSyncSize
        self.records = records
    }

    /// Which keys a sync request covers.
    public enum Scope: Sendable, Hashable {
        /// One key, if it needs a sync (`syncIfNeeded`, `SyncObject.sync()`).
        case key(String)
        /// Every eligible key that needs a sync (`syncRegisteredKeysIfNeeded`: activation, reachability).
        case needing
        /// Every eligible key, needed or not (`syncSnapshot`, the answer to the peer's handshake).
        case snapshot
    }

    public enum Event: Sendable, Hashable {
        /// The app registered `key`.
        case register(String, SyncKeyOptions)
        /// The app changed `key` to this JSON.
        case set(String, Data)
        /// The app asked for a sync.
        case syncRequested(Scope)
        /// An automatic trigger asked for a sync (activation, reachability, the peer's handshake): as
        /// `syncRequested`, except that a snapshot equal to ``pushing`` is not sent again
        /// (``Action/inFlight``).
        case triggered(Scope)
        /// The push of this snapshot ended (confirmed or failed); nil: whatever is in flight may not
        /// reach the peer any more (the session deactivated, the watch app's installation changed). The
        /// next trigger sends again.
        case pushEnded([SyncEntry]?)
        /// The peer confirmed a snapshot holding these entries, at this wall time (seconds since 1970).
        case confirmed([SyncEntry], at: Double)
        /// The peer sent these entries, at this wall time.
        case received([SyncEntry], at: Double)
    }

    /// What happened to a key, for the app's events and `wcctl sync list`.
    public enum Note: Sendable, Hashable {
        /// Sent in a snapshot.
        case sent(key: String, revision: SyncRevision)
        /// The peer confirmed the value held: it no longer needs a sync.
        case confirmed(key: String, revision: SyncRevision)
        /// A newer value arrived and is now held.
        case received(key: String, revision: SyncRevision)
        /// An entry not newer than what is held arrived, and was ignored.
        case ignoredOlder(key: String, received: SyncRevision, held: SyncRevision)
        /// The peer sent a key this app has not registered: kept, not applied to any object.
        case unknownKey(key: String, revision: SyncRevision)
        /// The peer sent a key this app does not share: ignored.
        case notShared(key: String)
        /// A change was not sent, and why.
        case notSent(key: String, SyncBlock)
    }

    public struct Action: Sendable, Hashable {
        /// A snapshot to send (all published entries), or nil.
        public var send: [SyncEntry]?
        /// A snapshot a trigger asked for that is not sent, because the push in flight carries it
        /// (what the phone answers the handshake with then).
        public var inFlight: [SyncEntry]?
        /// Received values now held, for the app's objects.
        public var applied: [SyncEntry] = []
        public var notes: [Note] = []
        /// The records changed: persist them before acting.
        public var persist = false
    }

    public mutating func event(_ event: Event) -> Action {
        var action = Action()
        switch event {
        case .register(let key, let options):
            var record = records[key] ?? SyncKeyRecord()
            guard record.options != options else { break }
            record.options = options
            // A value kept from the peer before the key was registered is now held as this key's.
            record.blocked = nil
            records[key] = record
            action.persist = true
        case .set(let key, let value):
            set(key, value, &action)
        case .syncRequested(let scope):
            request(scope, &action)
        case .triggered(let scope):
            request(scope, unlessInFlight: true, &action)
        case .pushEnded(let snapshot):
            if snapshot == nil || snapshot == pushing { pushing = nil }
        case .confirmed(let entries, let time):
            for entry in entries {
                guard var record = records[entry.key], record.revision == entry.revision else { continue }
                if record.needSync { action.notes.append(.confirmed(key: entry.key, revision: entry.revision)) }
                record.needSync = false
                record.lastSyncTime = time
                records[entry.key] = record
                action.persist = true
            }
        case .received(let entries, let time):
            for entry in entries { receive(entry, at: time, &action) }
        }
        return action
    }

    /// The decision for `record`'s current value.
    func eligibility(_ record: SyncKeyRecord) -> SyncEligibility? {
        guard let options = record.options else { return nil }
        return SyncEligibility.of(options, on: side, size: record.value?.count ?? 0, maxAutoSyncSize: maxAutoSyncSize)
    }

    private mutating func set(_ key: String, _ value: Data, _ action: inout Action) {
        var record = records[key] ?? SyncKeyRecord()
        let counter = (record.revision?.counter ?? 0) + 1
        record.value = value
        record.revision = SyncRevision(counter: counter, writer: side)
        record.blocked = nil
        action.persist = true
        switch eligibility(record) {
        case .automatic:
            record.needSync = true
            record.published = entry(key, record)
            records[key] = record
            send(&action)
        case .onRequest:
            record.needSync = true
            records[key] = record
        case .ineligible(let block):
            record.needSync = false
            if case .tooLarge = block {
                record.blocked = block
                action.notes.append(.notSent(key: key, block))
            }
            records[key] = record
        case nil:
            records[key] = record
        }
    }

    private mutating func request(_ scope: Scope, unlessInFlight: Bool = false, _ action: inout Action) {
        var due = false
        for key in records.keys.sorted() {
            guard var record = records[key], let eligibility = eligibility(record), eligibility.isSendable,
                  let current = entry(key, record)
            else { continue }
            switch scope {
            case .key(let wanted): guard key == wanted, record.needSync else { continue }
            case .needing: guard record.needSync else { continue }
            case .snapshot: break
            }
            if record.published != current {
                record.published = current
                records[key] = record
                action.persist = true
            }
            due = true
        }
        guard due else { return }
        let snapshot = published
        if unlessInFlight, snapshot == pushing {
            action.inFlight = snapshot
        } else {
            send(&action)
        }
    }

    private mutating func receive(_ entry: SyncEntry, at time: Double, _ action: inout Action) {
        var record = records[entry.key] ?? SyncKeyRecord()
        if let held = orderedAgainst(record), entry.revision <= held {
            action.notes.append(.ignoredOlder(key: entry.key, received: entry.revision, held: held))
            return
        }
        if let options = record.options, options.availability == .phoneOnly || options.availability == .watchOnly {
            action.notes.append(.notShared(key: entry.key))
            return
        }
        record.value = entry.value
        record.revision = entry.revision
        record.peerRevision = entry.revision
        record.needSync = false
        record.lastSyncTime = time
        record.blocked = nil
        if record.options == nil {
            action.notes.append(.unknownKey(key: entry.key, revision: entry.revision))
        } else {
            action.notes.append(.received(key: entry.key, revision: entry.revision))
            action.applied.append(entry)
        }
        // What this app sends next carries the newest value it holds (a reinstalled peer gets it back).
        if eligibility(record)?.isSendable == true { record.published = entry }
        records[entry.key] = record
        action.persist = true
    }

    /// The revision a received value must be newer than: the held one, except for a key the peer owns
    /// (`.phoneWithWatchSync` on the watch), where only the peer's own earlier values count: a local
    /// change stays local and must not hold back the owner's next change, however often it was made.
    private func orderedAgainst(_ record: SyncKeyRecord) -> SyncRevision? {
        guard eligibility(record) == .ineligible(.phoneOwned) else { return record.revision }
        return record.peerRevision ?? record.revision.flatMap { $0.writer == side.peer ? $0 : nil }
    }

    /// All published entries, by key.
    private var published: [SyncEntry] {
        records.keys.sorted().compactMap { records[$0]?.published }
    }

    /// Sends all published entries: in flight from now on.
    private mutating func send(_ action: inout Action) {
        let snapshot = published
        action.send = snapshot
        pushing = snapshot
        action.notes += snapshot.map { .sent(key: $0.key, revision: $0.revision) }
    }

    private func entry(_ key: String, _ record: SyncKeyRecord) -> SyncEntry? {
        guard let value = record.value, let revision = record.revision else { return nil }
        return SyncEntry(key: key, revision: revision, value: value)
    }
}
