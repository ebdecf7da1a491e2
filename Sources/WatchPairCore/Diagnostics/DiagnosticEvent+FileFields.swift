extension DiagnosticEvent {
    /// What a file event says of its file: `WC_FILE_NAME`, `WC_FILE_BYTES` (its size) and
    /// `WC_FILE_OFFSET` (the bytes the receiver holds durably), each where it applies.
    public struct FileFields: Sendable, Hashable {
        /// The file's name (the last path component of the sender's file).
        public var name: String?
        /// The file's size in bytes.
        public var bytes: UInt64?
        /// The bytes the receiver holds durably.
        public var offset: UInt64?

        /// The fields given.
        public init(name: String? = nil, bytes: UInt64? = nil, offset: UInt64? = nil) {
            self.name = name
            self.bytes = bytes
            self.offset = offset
        }
    }
}
