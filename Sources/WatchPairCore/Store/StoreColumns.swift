import Foundation
import GRDB
import WatchPairWire

/// Conversions between Swift values and the column formats of `StoreSchema`.
enum StoreColumns {
    /// A UUID as a 16-byte BLOB.
    static func blob(_ uuid: UUID) -> Data {
        withUnsafeBytes(of: uuid.uuid) { Data($0) }
    }

    /// A 16-byte BLOB as a UUID, or nil when the value is not one.
    static func uuid(_ value: DatabaseValue) -> UUID? {
        guard let data = Data.fromDatabaseValue(value), data.count == 16 else { return nil }
        return UUID(uuid: data.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
    }

    /// A date as REAL seconds since 2001-01-01: round-trips exactly.
    static func real(_ date: Date) -> Double { date.timeIntervalSinceReferenceDate }

    /// A REAL column as a date.
    static func date(_ value: DatabaseValue) -> Date? {
        Double.fromDatabaseValue(value).map(Date.init(timeIntervalSinceReferenceDate:))
    }

    /// A UInt64 from the wire stored by bit pattern (values above Int64.max stay distinct).
    static func integer(_ value: UInt64) -> Int64 { Int64(bitPattern: value) }

    /// An INTEGER column stored by `integer(_:)`.
    static func unsigned(_ value: DatabaseValue) -> UInt64? {
        Int64.fromDatabaseValue(value).map { UInt64(bitPattern: $0) }
    }

    /// An INTEGER 0/1 column as a flag.
    static func flag(_ value: DatabaseValue) -> Bool? {
        Int64.fromDatabaseValue(value).flatMap { $0 == 0 ? false : $0 == 1 ? true : nil }
    }

    /// A payload as a BLOB.
    static func encode(_ payload: PlistDictionary) -> Data { Data(PlistCodec.encode(payload)) }

    /// Refuses a payload that could be stored but never decoded again (nested deeper than the codec reads),
    /// which would otherwise block the outbox or the context forever. The engine validates payloads first
    /// (WCError 7010); this is the store's own guard.
    static func checkDecodable(_ payload: PlistDictionary, path: String) throws(StoreError) {
        let depth = PlistCodec.nestingDepth(of: .dictionary(payload))
        guard depth <= PlistCodec.maxNestingDepth else {
            throw StoreError(
                .ioFailure, "payload nests \(depth) containers deep (the limit is \(PlistCodec.maxNestingDepth)); not stored",
                path: path)
        }
    }

    /// A payload BLOB as a dictionary, or nil when it does not decode.
    static func payload(_ value: DatabaseValue) -> PlistDictionary? {
        guard let data = Data.fromDatabaseValue(value) else { return nil }
        return try? PlistCodec.decodeDictionary(data)
    }

    /// Encodes a payload for the store, with the store's own guard (`checkDecodable`).
    static func encoded(_ payload: PlistDictionary, path: String) throws(StoreError) -> EncodedDictionary {
        do {
            return try EncodedDictionary(payload)
        } catch {
            try checkDecodable(payload, path: path)
            preconditionFailure("encoding failed for a decodable payload: \(error)")
        }
    }

    /// A payload BLOB strictly decoded (the store's reads that hand values to the app), or nil when it does
    /// not decode.
    static func validatedPayload(_ value: DatabaseValue) -> EncodedDictionary? {
        guard let data = Data.fromDatabaseValue(value) else { return nil }
        return try? EncodedDictionary(validating: [UInt8](data))
    }

    /// A payload BLOB this store wrote, as it is (the sender's page reads: the peer validates the frame).
    static func storedPayload(_ value: DatabaseValue) -> EncodedDictionary? {
        Data.fromDatabaseValue(value).map { EncodedDictionary(storedBytes: [UInt8]($0)) }
    }
}

extension Row {
    /// The rows of the cached statement `sql`, each turned into a value by `decode` as the cursor reaches it
    /// (no intermediate array of rows). The store's paged reads all go through here.
    static func decodeAll<T>(
        _ database: Database, sql: String, arguments: StatementArguments, _ decode: (Row) throws -> T
    ) throws -> [T] {
        let rows = try Row.fetchCursor(database.cachedStatement(sql: sql), arguments: arguments)
        var values: [T] = []
        while let row = try rows.next() { values.append(try decode(row)) }
        return values
    }

    /// The value at `index`, converted by `convert`; a missing or malformed value means a damaged store.
    func decode<T>(_ index: Int, _ what: String, path: String, _ convert: (DatabaseValue) -> T?) throws(StoreError) -> T {
        let value: DatabaseValue = self[index]
        guard let converted = convert(value) else { throw StoreError.undecodable(what, path: path) }
        return converted
    }
}
