/// Exactly-once execution at the receiver: which request ids have run, and what they answered.
///
/// A request id seen for the first time is run; a repeat while it runs waits for that run; a repeat
/// after it ran is answered with the recorded response (`duplicateSuppressed`), as long as the record
/// is younger than `window` (1 h, the request queue's expiry, so no sender still holds the request).
/// At most `capacity` (1,000) finished records are kept: past that the oldest is forgotten, and a
/// repeat of that id would run again; with the sender's bounds (queue of 100, 1 h expiry) that needs
/// over 1,000 requests within the hour of one id's retries. Running entries are never evicted.
public struct ResponseLedger: Sendable {
    /// What happened.
    public enum Event: Sendable, Hashable {
        /// A request with `id` arrived at `now`.
        case arrived(id: UUID, now: Duration)
        /// The run of `id` finished with the encoded `response` at `now`.
        case finished(id: UUID, response: String, now: Duration)
    }

    /// What the owner does.
    public enum Action: Sendable, Hashable {
        /// Run the handler (first arrival).
        case run
        /// A repeat while the first run is still going: answer it when that run finishes.
        case awaitRun
        /// A repeat: answer with this recorded response, do not run.
        case replay(String)
        /// Nothing (a `finished` was recorded).
        case none
    }

    private enum Entry: Sendable {
        case running
        case done(response: String, at: Duration)
    }

    /// A finished request's recorded response, as persisted.
    public struct Record: Sendable, Hashable {
        /// The request id.
        public let id: UUID
        /// The response envelope it answered.
        public let response: String
        /// When it finished (on the caller's timeline).
        public let at: Duration

        /// A record.
        public init(id: UUID, response: String, at: Duration) {
            self.id = id
            self.response = response
            self.at = at
        }
    }

    /// The most finished records kept.
    public let capacity: Int
    /// How long a finished record answers repeats.
    public let window: Duration
    private var entries: [UUID: Entry] = [:]
    /// Finished ids, oldest first, for eviction.
    private var finishedOrder: [UUID] = []

    /// A ledger holding `records` (e.g. loaded from disk, oldest first; the newest `capacity` are kept).
    public init(capacity: Int = 1_000, window: Duration = .seconds(3600), records: [Record] = []) {
        self.capacity = max(1, capacity)
        self.window = window
        for record in records.suffix(self.capacity) {
            entries[record.id] = .done(response: record.response, at: record.at)
            finishedOrder.append(record.id)
        }
    }

    /// The finished records, oldest first (what is persisted).
    public var records: [Record] {
        finishedOrder.compactMap { id in
            guard case .done(let response, let at)? = entries[id] else { return nil }
            return Record(id: id, response: response, at: at)
        }
    }

    /// The number of finished records held.
    public var recordCount: Int { finishedOrder.count }

    /// Applies `event`.
    public mutating func event(_ event: Event) -> Action {
        switch event {
        case .arrived(let id, let now):
            forgetExpired(now: now)
            switch entries[id] {
            case nil:
                entries[id] = .running
                return .run
            case .running:
                return .awaitRun
            case .done(let response, _):
                return .replay(response)
            }
        case .finished(let id, let response, let now):
            entries[id] = .done(response: response, at: now)
            finishedOrder.append(id)
            if finishedOrder.count > capacity {
                let evicted = finishedOrder.removeFirst()
                entries[evicted] = nil
            }
            return .none
        }
    }

    private mutating func forgetExpired(now: Duration) {
        while let oldest = finishedOrder.first, case .done(_, let at)? = entries[oldest], now - at >= window {
            finishedOrder.removeFirst()
            entries[oldest] = nil
        }
    }
}

import Foundation
