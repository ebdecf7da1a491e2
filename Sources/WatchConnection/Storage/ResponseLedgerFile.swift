import Foundation

/// The receiver's recorded responses on disk, so exactly-once holds across a kill -9 of the receiving
/// app: a request it answered before dying is answered from the record after the restart, not run again.
///
/// `<directory>/watchconnection-responses.json`, a ``DurableLog``: its first line is
/// `{"version":1,"records":[{"id":UUID,"response":String,"at":seconds since 1970}]}`, oldest first; each
/// later line is one record `{"id":…,"response":…,"at":…}` appended since. A record is made durable before
/// its answer leaves, so no answer is given that is not on disk; that costs one line and one `fdatasync`,
/// not the whole file (1,000 records) rewritten per request. Once as many records were appended as the
/// ledger holds, or their lines outgrow the first (``DurableLog``), the next one rewrites the file as one
/// line again. An unreadable file is set aside and reported like the queue file; the ledger then starts
/// empty.
struct ResponseLedgerFile: Sendable {
    /// The file's name in its directory.
    static let fileName = "watchconnection-responses.json"

    private let log: DurableLog<Stored, Entry>

    private struct Stored: Codable {
        var version: Int
        var records: [Entry]
    }

    private struct Entry: Codable {
        var id: UUID
        var response: String
        var at: Double

        init(_ record: ResponseLedger.Record) {
            self.id = record.id
            self.response = record.response
            self.at = record.at.seconds
        }

        var record: ResponseLedger.Record { ResponseLedger.Record(id: id, response: response, at: Duration(seconds: at)) }
    }

    /// The file in `directory`.
    init(directory: URL) {
        log = DurableLog(url: directory.appendingPathComponent(Self.fileName))
    }

    /// The records, oldest first, or where an unreadable file was set aside and why.
    func load(setAsideSuffix: String) -> (records: [ResponseLedger.Record], setAside: (path: String, reason: String)?) {
        switch log.read(setAsideSuffix: setAsideSuffix) {
        case .empty:
            return ([], nil)
        case .setAside(let path, let reason):
            return ([], (path, reason))
        case .content(let stored, let appended):
            return ((stored.records + appended).map(\.record), nil)
        }
    }

    /// Makes `record`, just added to `ledger`, durable.
    func save(_ record: ResponseLedger.Record, of ledger: ResponseLedger) throws(WatchConnectionError) {
        try log.append(Entry(record), liveCount: ledger.capacity) {
            Stored(version: 1, records: ledger.records.map(Entry.init))
        }
    }
}
