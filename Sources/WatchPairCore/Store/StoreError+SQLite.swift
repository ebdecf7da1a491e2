import GRDB

extension StoreError {
    /// Maps any error thrown while using SQLite to a `StoreError`.
    ///
    /// `SQLITE_FULL` becomes `.diskFull`; `SQLITE_CORRUPT` and `SQLITE_NOTADB` become `.corrupt`; at open,
    /// every other SQLite failure is `.cannotOpen`, later it is `.ioFailure`. The extended SQLite code is kept.
    /// A `StoreError` thrown from inside a transaction passes through unchanged.
    init(_ error: any Error, attempting what: String, path: String?, duringOpen: Bool = false) {
        if let error = error as? StoreError {
            self = error
            return
        }
        guard let error = error as? DatabaseError else {
            self.init(duringOpen ? .cannotOpen : .ioFailure, "\(what): \(error)", path: path)
            return
        }
        let kind: Kind
        switch error.resultCode {
        case .SQLITE_FULL: kind = .diskFull
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: kind = .corrupt
        default: kind = duringOpen ? .cannotOpen : .ioFailure
        }
        let reason = error.message ?? "SQLite error \(error.extendedResultCode.rawValue)"
        self.init(kind, "\(what): \(reason)", path: path, sqliteCode: error.extendedResultCode.rawValue)
    }

    /// The error for a call made after `close()`.
    static func closed(path: String) -> StoreError {
        StoreError(.ioFailure, "the store is closed", path: path)
    }

    /// The error for a stored value that does not decode: the file was damaged or written by something else.
    static func undecodable(_ what: String, path: String) -> StoreError {
        StoreError(.corrupt, "a stored \(what) could not be decoded", path: path)
    }
}
