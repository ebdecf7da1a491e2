import WatchPairWire

/// A sequence diagram of a session across both apps: the model that ``TimelineLayout`` builds from
/// events and the renderers draw. Time runs down in rows (one per drawn moment, in time order); the
/// phone's lifeline is on the left, the watch's on the right.
public struct TimelineDiagram: Sendable, Hashable {
    /// The time of each row, in microseconds since 1970; non-decreasing.
    public var rows: [Int64]
    /// What is drawn, in row order.
    public var elements: [TimelineElement]
    /// When each app was running: a solid lifeline from its launch to its exit (or the end).
    public var runs: [TimelineRun]

    /// A diagram.
    public init(rows: [Int64] = [], elements: [TimelineElement] = [], runs: [TimelineRun] = []) {
        self.rows = rows
        self.elements = elements
        self.runs = runs
    }
}

/// One drawn thing: an arrow between the lifelines or a note on one.
public struct TimelineElement: Sendable, Hashable {
    /// What it shows; decides its shape and colour.
    public var kind: TimelineElementKind
    /// The app it starts at (an arrow) or stands on (a note).
    public var role: Role
    /// The row it starts at.
    public var fromRow: Int
    /// The row it ends at (the same as `fromRow` for notes and for arrows drawn straight across).
    public var toRow: Int
    /// The short text drawn with it.
    public var label: String
    /// The events it stands for, as lines for a tooltip.
    public var detail: String
    /// Ties the elements of one userInfo transfer together (its transfer id), or nil.
    public var link: String?

    /// An element.
    public init(
        _ kind: TimelineElementKind, role: Role, fromRow: Int, toRow: Int? = nil, label: String, detail: String = "",
        link: String? = nil
    ) {
        self.kind = kind
        self.role = role
        self.fromRow = fromRow
        self.toRow = toRow ?? fromRow
        self.label = label
        self.detail = detail
        self.link = link
    }
}

/// The kinds of drawn elements. Arrows go from `role` to its peer; the others are notes on `role`.
public enum TimelineElementKind: String, Sendable, Hashable, CaseIterable {
    /// A live message reaching the peer (arrow).
    case message
    /// The reply to a message, or its delivery confirmation (arrow back).
    case reply
    /// The error a message ended with, after the peer got it: 7012, 7014, 7011 (arrow back, red).
    case messageError
    /// A message that never reached the peer: 7007 and the like (arrow ending in a cross).
    case messageLost
    /// A userInfo transfer, from queued at the sender to received (arrow, slanted when it waited).
    case userInfo
    /// The sender learning that a transfer finished (arrow back).
    case didFinish
    /// An application context version, from set to received (arrow).
    case context
    /// A userInfo queued, cancelled, or a context version that the peer never received (note).
    case queued
    /// The app was launched in the foreground (note).
    case foregroundLaunch
    /// The app was launched in the background by socket activation (note).
    case backgroundLaunch
    /// The user opened a background-launched app: it now runs in the foreground (note).
    case appOpened
    /// The app exited after being idle (note).
    case idleExit
    /// The app ended without an idle exit: stopped or killed (note, inferred from the next launch).
    case ended
    /// The link to the peer completed its handshake (note).
    case linkUp
    /// The link to the peer closed or went silent (note).
    case linkDown
    /// A rejected frame, a failed handshake, a refused payload, a full queue (note, red).
    case fault
    /// A quirk of real devices injected on purpose (`quirkInjected`): its name (note, magenta, dashed).
    case quirk
    /// Reachability changed, or any other event (note, grey).
    case info

    /// Whether this kind is drawn as an arrow between the lifelines.
    public var isArrow: Bool {
        switch self {
        case .message, .reply, .messageError, .messageLost, .userInfo, .didFinish, .context: true
        default: false
        }
    }
}

/// A stretch of rows during which one app was running.
public struct TimelineRun: Sendable, Hashable {
    /// The app.
    public var role: Role
    /// The row of its launch (0 when it was already running when the diagram starts).
    public var fromRow: Int
    /// The row of its exit, or nil when it still runs at the end.
    public var toRow: Int?

    /// A run.
    public init(role: Role, fromRow: Int, toRow: Int?) {
        self.role = role
        self.fromRow = fromRow
        self.toRow = toRow
    }
}
