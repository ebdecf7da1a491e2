import Foundation
import Testing
@testable import WatchConnection

/// The recorded responses read by hand (``JSONCursor``) against `JSONDecoder`, which read them before:
/// whatever the reader reads, it reads as the decoder does, and what it declines is left to the decoder.
@Suite("Stored JSON read without Foundation's decoder")
struct StoredJSONReadTests {
    typealias Entry = ResponseLedgerFile.Entry
    typealias Stored = ResponseLedgerFile.Stored

    static func scanned<Value: CursorDecodable>(_ text: String, as type: Value.Type) -> Value? {
        Data(text.utf8).withUnsafeBytes { Value.read($0) }
    }

    static func decoded<Value: Decodable>(_ text: String, as type: Value.Type) -> Value? {
        try? JSONDecoder().decode(Value.self, from: Data(text.utf8))
    }

    /// Records as the file holds them, and as other writers might put them (order, spaces, extra keys,
    /// escapes of every kind JSON has that are not surrogates).
    static let readable: [String] = [
        #"{"at":1796005633.187,"id":"23D76A12-FB55-4055-8322-4FE819D86EAE","response":"{\"body\":{},\"id\":\"23D76A12-FB55-4055-8322-4FE819D86EAE\",\"kind\":\"response\",\"type\":\"KeyedSync.Push\",\"v\":1}"}"#,
        #" { "response" : "plain" , "at" : -0.5e-3 , "id" : "23d76a12-fb55-4055-8322-4fe819d86eae" , "extra" : [ { "deep" : [ null, true, false, 1E+2 ] } ] } "#,
        #"{"id":"23D76A12-FB55-4055-8322-4FE819D86EAE","at":0,"response":"q\" b\\ s\/ \b\f\n\r\t \u0000 \u00e9 \u65e5 \u2028 é 日本 🚀","extra":1,"extra":2}"#,
        #"{"id":"23D76A12-FB55-4055-8322-4FE819D86EAE","at":1700000000,"response":""}"#,
    ]

    @Test("records in any order, spacing and escape read as JSONDecoder reads them")
    func readable() {
        for text in Self.readable {
            let scanned = Self.scanned(text, as: Entry.self)
            #expect(scanned != nil, "\(text)")
            #expect(scanned == Self.decoded(text, as: Entry.self), "\(text)")
        }
    }

    /// Texts the reader leaves to the decoder: a surrogate escape (which the decoder reads or refuses), a
    /// key it reads twice (the decoder takes the first), anything not strict JSON, a number out of range,
    /// a missing field or another type.
    static let declined: [String] = [
        #"{"at":1,"id":"23D76A12-FB55-4055-8322-4FE819D86EAE","response":"\ud83d\ude80"}"#,
        #"{"at":1,"id":"23D76A12-FB55-4055-8322-4FE819D86EAE","response":"\ud83d"}"#,
        #"{"at":1,"id":"23D76A12-FB55-4055-8322-4FE819D86EAE","response":"first","response":"second"}"#,
        #"{"at":1,"at":2,"id":"23D76A12-FB55-4055-8322-4FE819D86EAE","response":"r"}"#,
        #"{"at":1e400,"id":"23D76A12-FB55-4055-8322-4FE819D86EAE","response":"r"}"#,
        #"{"at":01,"id":"23D76A12-FB55-4055-8322-4FE819D86EAE","response":"r"}"#,
        #"{"at":1.,"id":"23D76A12-FB55-4055-8322-4FE819D86EAE","response":"r"}"#,
        #"{"at":"1","id":"23D76A12-FB55-4055-8322-4FE819D86EAE","response":"r"}"#,
        #"{"at":1,"id":"not-a-uuid","response":"r"}"#,
        #"{"at":1,"id":"23D76A12-FB55-4055-8322-4FE819D86EAE"}"#,
        #"{"at":1,"id":"23D76A12-FB55-4055-8322-4FE819D86EAE","response":"\x"}"#,
        #"{"at":1,"id":"23D76A12-FB55-4055-8322-4FE819D86EAE","response":"\u12G4"}"#,
        #"{"at":1,"id":"23D76A12-FB55-4055-8322-4FE819D86EAE","response":"r",}"#,
        #"{"at":1,"id":"23D76A12-FB55-4055-8322-4FE819D86EAE","response":"r"} x"#,
        #"{"at":1,"id":"23D76A12-FB55-4055-8322-4FE819D86EAE","response":null}"#,
        "{\"at\":1,\"id\":\"23D76A12-FB55-4055-8322-4FE819D86EAE\",\"response\":\"tab\there\"}",
        "{\"at\":1,\"id\":\"23D76A12-FB55-4055-8322-4FE819D86EAE\",\"response\":\"r\",\"x\":" + String(repeating: "[", count: 70)
            + String(repeating: "]", count: 70) + "}",
        "not json", "", "{", "[]", "null",
    ]

    @Test("what the reader declines it leaves to JSONDecoder, which reads or refuses it as before")
    func declined() {
        for text in Self.declined {
            #expect(Self.scanned(text, as: Entry.self) == nil, "\(text)")
        }
        // The load reads each through the decoder: a surrogate pair as the decoder reads it, the first
        // of a repeated key.
        #expect(Self.decoded(Self.declined[0], as: Entry.self)?.response == "🚀")
        #expect(Self.decoded(Self.declined[2], as: Entry.self)?.response == "first")
    }

    @Test("bytes that are not UTF-8 are left to the decoder")
    func notUTF8() {
        for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80]] {
            var line = Array(#"{"at":1,"id":"23D76A12-FB55-4055-8322-4FE819D86EAE","response":"a"#.utf8)
            line += bad + Array(#""}"#.utf8)
            #expect(line.withUnsafeBytes { Entry.read($0) } == nil)
            #expect((try? JSONDecoder().decode(Entry.self, from: Data(line))) == nil)
        }
    }

    @Test("random responses and times, as JSONEncoder writes them, read exactly as JSONDecoder reads them", arguments: [UInt64(1), 2, 3])
    func randomRecords(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let scalars: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{7}", "\u{1F}", "\n", "\t", "\u{7F}",
                                         "é", "日", "🚀", "\u{2028}", "\u{FEFF}", "{", "}"]
        var entries: [Entry] = []
        for _ in 0..<300 {
            let length = Int(random.next() % 40)
            let response = String(String.UnicodeScalarView((0..<length).map { _ in scalars[Int(random.next() % UInt64(scalars.count))] }))
            // Any finite double, by its bits: the reader must round every one as the decoder does.
            var at = Double(bitPattern: random.next())
            if !at.isFinite { at = Double(random.next() % 1_000_000) / 1000 }
            entries.append(Entry(id: UUID(), response: response, at: at))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for entry in entries {
            let text = String(decoding: try encoder.encode(entry), as: UTF8.self)
            let scanned = Self.scanned(text, as: Entry.self)
            #expect(scanned != nil, "\(text)")
            #expect(scanned?.at.bitPattern == entry.at.bitPattern, "\(text)")
            #expect(scanned == Self.decoded(text, as: Entry.self), "\(text)")
        }
        let snapshot = String(decoding: try encoder.encode(Stored(version: 1, records: entries)), as: UTF8.self)
        #expect(Self.scanned(snapshot, as: Stored.self)?.records == entries)
    }

    @Test("a snapshot with a record the reader declines is read whole by the decoder")
    func snapshotFallsBack() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let snapshot = #"{"records":[{"at":1,"id":"23D76A12-FB55-4055-8322-4FE819D86EAE","response":"plain"},"#
            + #"{"at":2,"id":"23D76A12-FB55-4055-8322-4FE819D86EAF","response":"\ud83d\ude80"}],"version":1}"#
        #expect(Self.scanned(snapshot, as: Stored.self) == nil)
        let change = #"{"at":3,"id":"23D76A12-FB55-4055-8322-4FE819D86EB0","response":"changed \u00e9"}"#
        try Data((snapshot + "\n" + change + "\n").utf8).write(to: directory.appendingPathComponent(ResponseLedgerFile.fileName))
        let loaded = ResponseLedgerFile(directory: directory).load(setAsideSuffix: "x")
        #expect(loaded.setAside == nil)
        #expect(loaded.records.map(\.response) == ["plain", "🚀", "changed é"])
        #expect(loaded.records.map(\.at) == [.seconds(1), .seconds(2), .seconds(3)])
    }
}
