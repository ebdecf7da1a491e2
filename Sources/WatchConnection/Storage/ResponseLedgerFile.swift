import Foundation

/// The receiver's recorded responses on disk, so exactly-once holds across a kill -9 of the receiving
/// app: a request it answered before dying is answered from the record after the restart, not run again.
///
/// `<directory>/watchconnection-responses.json`: `{"version":1,"records":[{"id":UUID,"response":String,
/// "at":seconds since 1970}]}`, oldest first, at most the ledger's capacity (1,000). Written through
/// `DurableFile` after each run and before its answer leaves, so no answer is given that is not on disk.
/// An unreadable file is set aside and reported like the queue file; the ledger then starts empty.
struct ResponseLedgerFile: Sendable {
    /// The file's name in its directory.
    static let fileName = "watchconnection-responses.json"

    private let file: DurableFile<Stored>

    private struct Stored: Codable {
        var version: Int
        var records: [Entry]
    }

    private struct Entry: Codable {
        var id: UUID
        var response: String
        var at: Double
    }

    /// The file in `directory`.
    init(directory: URL) {
        file = DurableFile(url: directory.appendingPathComponent(Self.fileName))
    }

    /// The records, or where an unreadable file was set aside and why.
    func load(setAsideSuffix: String) -> (records: [ResponseLedger.Record], setAside: (path: String, reason: String)?) {
        switch file.read(setAsideSuffix: setAsideSuffix) {
        case .setAside(let path, let reason):
            return ([], (path, reason))
        case .content(let stored):
            let records = (stored?.records ?? []).map { ResponseLedger.Record(id: $0.id, response: $0.response, at: Duration(seconds: $0.at)) }
            return (records, nil)
        }
    }

    /// Replaces the file with `records`.
    func save(_ records: [ResponseLedger.Record]) throws(WatchConnectionError) {
        try file.write(Stored(version: 1, records: records.map { Entry(id: $0.id, response: $0.response, at: $0.at.seconds) }))
    }
}
