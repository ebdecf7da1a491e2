import Foundation
import WatchPairCore
import WatchPairWire

extension DiagnosticEvent {
    /// The reliability layer's fields (`WC_REQUEST_TYPE`, `WC_REQUEST_ID`, `WC_ATTEMPT`, `WC_STRATEGY`, `WC_HEALTH`,
    /// ``LayerEventKind/fields``), and keyed sync's on top of it (`WC_SYNC_KEY`, `WC_SYNC_REVISION`,
    /// ``SyncEventKind/fields``), each where it applies: what the daemons' events of those layers add to
    /// an event (``DiagnosticEvent/fields``).
    public struct RequestFields: Sendable, Hashable {
        /// The typed request's wire name.
        public var type: String?
        /// The request's id.
        public var id: UUID?
        /// The live-message attempt (1 for the first) an answer or failure came from.
        public var attempt: Int?
        /// A delivery strategy or channel.
        public var strategy: String?
        /// The layer's health after the event.
        public var health: String?
        /// A synced key (docs/KeyedSync.md).
        public var syncKey: String?
        /// A synced key's revision, e.g. `7@phone`.
        public var syncRevision: String?

        /// The fields given.
        public init(
            type: String? = nil, id: UUID? = nil, attempt: Int? = nil, strategy: String? = nil, health: String? = nil,
            syncKey: String? = nil, syncRevision: String? = nil
        ) {
            self.type = type
            self.id = id
            self.attempt = attempt
            self.strategy = strategy
            self.health = health
            self.syncKey = syncKey
            self.syncRevision = syncRevision
        }

        /// The ones set, in the journal's order: the layer's, then keyed sync's.
        var journalFields: EventFields {
            var fields = EventFields()
            fields[.requestType] = type.map { .string($0) }
            fields[.requestId] = id.map { .string($0.uuidString) }
            fields[.attempt] = attempt.map { .integer(Int64($0)) }
            fields[.strategy] = strategy.map { .string($0) }
            fields[.health] = health.map { .string($0) }
            fields[.syncKey] = syncKey.map { .string($0) }
            fields[.syncRevision] = syncRevision.map { .string($0) }
            return fields
        }

        /// The ones `fields` holds; nil when it holds none.
        init?(_ fields: EventFields) {
            func text(_ name: EventField.Name) -> String? {
                if case .string(let text) = fields[name] { text } else { nil }
            }
            let attempt: Int? = if case .integer(let number) = fields[.attempt] { Int(exactly: number) } else { nil }
            self.init(
                type: text(.requestType), id: text(.requestId).flatMap(UUID.init(uuidString:)), attempt: attempt,
                strategy: text(.strategy), health: text(.health), syncKey: text(.syncKey), syncRevision: text(.syncRevision))
            if self == RequestFields() { return nil }
        }
    }

    /// An event of the reliability layer or keyed sync with their fields (``RequestFields``).
    public init(
        _ kind: Kind, role: Role, _ message: String, severity: Severity? = nil, channel: Channel? = nil,
        transferId: UUID? = nil, file: FileFields? = nil, seq: UInt64? = nil, errorCode: WCErrorCode? = nil,
        duration: Duration? = nil, request: RequestFields, timestamp: Date = Date()
    ) {
        self.init(
            kind, role: role, message, severity: severity, channel: channel, transferId: transferId, file: file, seq: seq,
            errorCode: errorCode, duration: duration, fields: request.journalFields, timestamp: timestamp)
    }

    /// The reliability layer's and keyed sync's fields of this event; nil when it has none.
    public var request: RequestFields? { RequestFields(fields) }
}
