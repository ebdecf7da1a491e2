import WatchPairWire

/// A failure of the durable store: what kind, a sentence, and where SQLite said so.
///
/// Store errors are local runtime errors; `wcCode` gives the `WCError` code to show a caller of the
/// channel API when one must be reported there.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as far as a caller needs to decide what to do.
    public enum Kind: Sendable, Hashable {
        /// The database (or its directory) could not be opened or created: missing permissions, a path that
        /// is not a directory, a stray WAL without its database, a file that is not a WatchPair store or
        /// was written by a newer schema. The file is left untouched.
        case cannotOpen
        /// The database file is damaged: it is not an SQLite file, `PRAGMA quick_check` found problems, or
        /// a stored value could not be decoded. At open the file is left untouched for a person to inspect.
        case corrupt
        /// The outbox already holds `outboxLimit` outstanding transfers; nothing was stored (WCError 7015).
        case outboxFull
        /// SQLite reported `SQLITE_FULL`: the disk (or file-size limit) is full; the transaction was rolled
        /// back (WCError 7015).
        case diskFull
        /// The file an app asked to transfer is missing, unreadable or not a regular file; `path` names it and
        /// nothing was stored (WCError 7008).
        case unreadableFile
        /// Any other SQLite or file-system failure (I/O error, store closed, duplicate transfer id…);
        /// `sqliteCode` tells which when SQLite reported it.
        case ioFailure
    }

    /// What went wrong.
    public var kind: Kind
    /// One sentence for a person: what was attempted and what SQLite (or the system) said.
    public var message: String
    /// The file concerned, when there is one.
    public var path: String?
    /// SQLite's extended result code when SQLite reported the failure (`code & 0xFF` is the primary code,
    /// e.g. 13 for `SQLITE_FULL`, 11 for `SQLITE_CORRUPT`).
    public var sqliteCode: Int32?

    /// Creates an error; `wcCode` follows from `kind`.
    public init(_ kind: Kind, _ message: String, path: String? = nil, sqliteCode: Int32? = nil) {
        self.kind = kind
        self.message = message
        self.path = path
        self.sqliteCode = sqliteCode
    }

    /// The `WCError` code for this failure: `.insufficientSpace` (7015) for `outboxFull` and `diskFull`,
    /// `.invalidParameter` (7008) for `unreadableFile`, `.genericError` (7001) otherwise.
    public var wcCode: WCErrorCode {
        switch kind {
        case .outboxFull, .diskFull: .insufficientSpace
        case .unreadableFile: .invalidParameter
        case .cannotOpen, .corrupt, .ioFailure: .genericError
        }
    }

    /// `store <kind>: <message> (path …, SQLite code …)`.
    public var description: String {
        var text = "store \(kind): \(message)"
        var details: [String] = []
        if let path { details.append("path \(path)") }
        if let sqliteCode { details.append("SQLite code \(sqliteCode)") }
        if !details.isEmpty { text += " (" + details.joined(separator: ", ") + ")" }
        return text
    }
}
