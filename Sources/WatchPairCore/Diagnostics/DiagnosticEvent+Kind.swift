extension DiagnosticEvent {
    /// An event's kind as the sinks see it, whichever vocabulary (``JournalEventKind``) it comes from:
    /// its `WC_EVENT` name, its `MESSAGE_ID` (catalogued in systemd/watchpair.catalog) and the priority
    /// its events have by default.
    ///
    /// Each vocabulary offers its kinds as static members (`.sessionActivated`, the layer's
    /// `.requestSent`), so producers and tests write `DiagnosticEvent(.idleExit, …)` whatever the
    /// vocabulary. Two kinds are the same when their name and message ID are: a kind read back from the
    /// event history (``init(name:messageID:priority:)``) equals the one its event was written with.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The event's name (`WC_EVENT`).
        public let name: String
        /// The journald `MESSAGE_ID` of this kind.
        public let messageID: String
        /// The priority an event of this kind is logged at unless the producer says otherwise.
        public let defaultSeverity: Severity

        /// The kind `kind` of a vocabulary.
        public init(_ kind: some JournalEventKind) {
            self.init(name: kind.name, messageID: kind.messageID, priority: kind.priority)
        }

        /// A kind known by what a written event says of it: its name, `MESSAGE_ID` and priority.
        public init(name: String, messageID: String, priority: Severity) {
            self.name = name
            self.messageID = messageID
            self.defaultSeverity = priority
        }

        /// The name.
        public var description: String { name }

        /// Whether both have the same name and message ID.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.name == rhs.name && lhs.messageID == rhs.messageID
        }

        /// Hashes the name and message ID.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(messageID)
        }
    }
}
