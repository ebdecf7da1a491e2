import Foundation
import WatchPairWire

/// One diagnostic event (docs/Systemd.md, "journald"): what happened, to which channel and transfer, and
/// with which error.
///
/// The engine produces these as typed values, and the daemons' faces of the reliability layer and keyed
/// sync add theirs, each of a kind of its vocabulary (``JournalEventKind``); the daemon writes each one
/// to journald with the `MESSAGE_ID` of its kind and the `WC_*` fields below, and streams them to
/// `wcctl events`.
public struct DiagnosticEvent: Sendable, Hashable {
    /// The kind of event: its `WC_EVENT` name and its `MESSAGE_ID`.
    public var kind: Kind
    /// The side that reports it (`WC_ROLE`).
    public var role: Role
    /// A sentence for a person (`MESSAGE`).
    public var message: String
    /// Severity (`PRIORITY`).
    public var severity: Severity
    /// The channel concerned (`WC_CHANNEL`).
    public var channel: Channel?
    /// The userInfo transfer concerned (`WC_TRANSFER_ID`).
    public var transferId: UUID?
    /// The file transfer's name, size and offset, for file events.
    public var file: FileFields?
    /// A sequence number: userInfo seq, context version or message id (`WC_SEQ`).
    public var seq: UInt64?
    /// The error reported (`WC_ERROR_CODE`).
    public var errorCode: WCErrorCode?
    /// How long the reported operation took (`WC_DURATION_US`).
    public var duration: Duration?
    /// The fields its vocabulary adds, for the events of the reliability layer and keyed sync (their
    /// `WC_REQUEST_ID`, `WC_SYNC_KEY`, …), written after the ones above.
    public var fields: EventFields
    /// When it happened (wall clock; for display only).
    public var timestamp: Date

    /// An event of `kind` that `role` reports; `severity` nil takes the kind's default.
    public init(
        _ kind: Kind,
        role: Role,
        _ message: String,
        severity: Severity? = nil,
        channel: Channel? = nil,
        transferId: UUID? = nil,
        file: FileFields? = nil,
        seq: UInt64? = nil,
        errorCode: WCErrorCode? = nil,
        duration: Duration? = nil,
        fields: EventFields = [],
        timestamp: Date = Date()
    ) {
        self.kind = kind
        self.role = role
        self.message = message
        self.severity = severity ?? kind.defaultSeverity
        self.channel = channel
        self.transferId = transferId
        self.file = file
        self.seq = seq
        self.errorCode = errorCode
        self.duration = duration
        self.fields = fields
        self.timestamp = timestamp
    }

    /// The three channels, as named in `WC_CHANNEL`.
    public enum Channel: String, Sendable, Hashable, CaseIterable, Codable {
        case message, userInfo, applicationContext
        /// File transfers: a channel of their own beside the three.
        case file
    }

    /// journald priorities used by events.
    public enum Severity: Int, Sendable, Hashable, Comparable, Codable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue > rhs.rawValue }
    }
}
