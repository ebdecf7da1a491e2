/// A kind of journal event (docs/Systemd.md, "journald"): what every vocabulary of events adopts — the engine's
/// (``CoreEventKind``), and the reliability layer's and keyed sync's in the module that owns them.
///
/// A kind fixes an event's `WC_EVENT` name, its `MESSAGE_ID` (catalogued in systemd/watchpair.catalog,
/// never changed once shipped) and the `PRIORITY` its events have unless their producer says otherwise;
/// its vocabulary names the `WC_*` fields its events may carry. The sinks (journald, stderr, the event
/// history, `wcctl events`) see every kind as a ``DiagnosticEvent/Kind``, so a new kind is a new case in
/// its vocabulary and an entry in the catalog, and nothing else.
///
/// Names and message IDs are unique across all vocabularies, and no two vocabularies name the same field
/// (the daemons' `EventCatalogTests` check both, and the catalog against every kind).
public protocol JournalEventKind: Sendable, Hashable, CaseIterable where AllCases: Sendable {
    /// The event's name: `WC_EVENT`, and `event` in `wcctl events --json`.
    var name: String { get }
    /// The journald `MESSAGE_ID`: 128 bits as 32 lowercase hex digits.
    var messageID: String { get }
    /// The `PRIORITY` an event of this kind is logged at unless its producer says otherwise.
    var priority: DiagnosticEvent.Severity { get }
    /// The `WC_*` fields this vocabulary's events may carry beyond `MESSAGE`, `MESSAGE_ID`, `PRIORITY`,
    /// `SYSLOG_IDENTIFIER`, `WC_EVENT` and `WC_ROLE`, in the order the journal shows them.
    static var fields: [EventField.Name] { get }
}

extension JournalEventKind where Self: RawRepresentable, RawValue == String {
    /// The case's name.
    public var name: String { rawValue }
}
