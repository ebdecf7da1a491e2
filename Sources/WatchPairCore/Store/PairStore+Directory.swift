extension PairStore {
    /// The state directory the store lives in (the database, the file spool, and beside them the app's
    /// `files/` directory).
    public var directory: String { configuration.directory }
}
