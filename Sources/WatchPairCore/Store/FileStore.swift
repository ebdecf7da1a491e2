import Foundation
import Logging

/// The file-transfer half of the durable store: the sender's file queue and the receiver's partial files
/// (docs/Store.md, "File transfers").
///
/// The rows live in the same SQLite file as ``PairStore``'s, through the same ``StoreDatabase`` (one writer,
/// one commit order, the queue lengths that follow commits); the bytes live in the spool beside it
/// (``FileSpool``). A type of its own so that the userInfo/context store and the file store each stay one
/// idea; ``PairStore/files`` is the way in. Thread-safe like ``PairStore``; after the store is closed every
/// call throws `.ioFailure`.
public final class FileStore: Sendable {
    /// The SQLite file and its transactions, shared with the ``PairStore`` that owns this.
    let database: StoreDatabase
    let configuration: StoreConfiguration
    /// The bytes of file transfers, beside the database.
    let spool: FileSpool
    /// The database file.
    var path: String { database.path }
    /// The queue lengths as of the last commit.
    var queueLengths: QueueLengths { database.queueLengths }

    init(database: StoreDatabase, configuration: StoreConfiguration) {
        self.database = database
        self.configuration = configuration
        self.spool = FileSpool(directory: configuration.directory)
    }
}
