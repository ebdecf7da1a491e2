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

    struct Stored: Codable, CursorDecodable {
        var version: Int
        var records: [Entry]
    }

    struct Entry: Codable, CursorDecodable, Equatable {
        var id: UUID
        var response: String
        var at: Double

        init(_ record: ResponseLedger.Record) {
            self.init(id: record.id, response: record.response, at: record.at.seconds)
        }

        init(id: UUID, response: String, at: Double) {
            self.id = id
            self.response = response
            self.at = at
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

// Read by hand: `JSONDecoder` took 11 ms of each launch for 1,000 records (211 KB of escaped responses),
// before the connection could take its first request.
extension ResponseLedgerFile.Stored {
    static func read(_ json: inout JSONCursor) -> Self? {
        var version: Int?, records: [ResponseLedgerFile.Entry]?
        let read = json.members { json, key in
            switch key {
            case "version":
                guard version == nil, let value = json.plainInteger() else { return false }
                version = value
            case "records":
                guard records == nil else { return false }
                var entries: [ResponseLedgerFile.Entry] = []
                guard json.elements({ json in
                    guard let entry = ResponseLedgerFile.Entry.read(&json) else { return false }
                    entries.append(entry)
                    return true
                }) else { return false }
                records = entries
            default:
                return json.skipValue()
            }
            return true
        }
        guard read, let version, let records else { return nil }
        return Self(version: version, records: records)
    }
}

extension ResponseLedgerFile.Entry {
    static func read(_ json: inout JSONCursor) -> Self? {
        var id: UUID?, response: String?, at: Double?
        let read = json.members { json, key in
            switch key {
            case "id":
                guard id == nil, let value = json.uuid() else { return false }
                id = value
            case "response":
                guard response == nil, let value = json.string() else { return false }
                response = value
            case "at":
                guard at == nil, let value = json.number() else { return false }
                at = value
            default:
                return json.skipValue()
            }
            return true
        }
        guard read, let id, let response, let at else { return nil }
        return Self(id: id, response: response, at: at)
    }
}
