import Foundation
import WatchConnection

/// The ledger on disk: `keyedsync.json` in the storage directory, replaced atomically and fsynced
/// before a change is reported (`DurableFile`); an unreadable file is set aside, never trapped on.
struct SyncLedgerFile: Sendable {
    static let fileName = "keyedsync.json"

    struct Content: Codable, Sendable {
        var version = 1
        var side: SyncSide
        var records: [String: SyncKeyRecord]
    }

    let file: DurableFile<Content>

    init(directory: URL) {
        file = DurableFile(url: directory.appendingPathComponent(Self.fileName))
    }

    /// The records kept for `side`, and what was set aside (a file that does not decode, or one of the
    /// other app: a ledger copied between apps would make the revisions lie).
    func load(side: SyncSide, setAsideSuffix: String) -> (records: [String: SyncKeyRecord], setAside: String?) {
        switch file.read(setAsideSuffix: setAsideSuffix) {
        case .content(nil): return ([:], nil)
        case .content(let content?) where content.side == side: return (content.records, nil)
        case .content(let content?):
            return ([:], "\(file.url.path) belongs to the \(content.side.rawValue) app, not the \(side.rawValue) app: ignored")
        case .setAside(let path, let reason): return ([:], "unreadable, set aside as \(path): \(reason)")
        }
    }

    func save(_ ledger: SyncLedger) throws(KeyedSyncError) {
        do {
            try file.write(Content(side: ledger.side, records: ledger.records))
        } catch {
            throw .storageFailed(error.description)
        }
    }
}
