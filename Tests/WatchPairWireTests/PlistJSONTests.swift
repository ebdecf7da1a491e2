import Foundation
import Testing
import WatchPairTesting
import WatchPairWire

@Suite struct PlistJSONTests {
    @Test func conventions() throws {
        let d = try PlistJSON.dictionary(fromJSONText: #"""
            {"s": "x", "i": 3, "f": 1.5, "g": 2.0, "b": true, "bytes": {"$data": "AAH/"},
             "when": {"$date": "2001-01-01T00:00:01.500Z"}, "list": [1, {"$date": "2001-01-01T01:00:00+01:00"}],
             "nan": {"$double": "NaN"}, "$data": "plain key, two keys", "other": 0}
            """#)
        #expect(d["s"] == .string("x"))
        #expect(d["i"] == .integer(3))
        #expect(d["f"] == .double(1.5))
        #expect(d["g"] == .double(2.0))
        #expect(d["b"] == .bool(true))
        #expect(d["bytes"] == .data(Data([0, 1, 0xFF])))
        #expect(d["when"] == .date(Date(timeIntervalSinceReferenceDate: 1.5)))
        #expect(d["list"] == .array([.integer(1), .date(Date(timeIntervalSinceReferenceDate: 0))]))
        guard case .double(let nan) = d["nan"] else { Issue.record("not a double"); return }
        #expect(nan.isNaN)
        #expect(d["$data"] == .string("plain key, two keys"))
    }

    /// What a request field or `--reply` may be, and the code when it may not (nil: accepted).
    @Test(arguments: [
        (#"{"a":1}"#, nil as Int?, nil as Int?),
        (#"{"$data":"AAE="}"#, 7008, nil),
        (#"[1]"#, 7008, 7008),
        (#""text""#, 7008, 7008),
        (#"{"a":null}"#, 7010, 7010),
        (#"{"$date":"2024-05-01T12:00:00Z"}"#, 7008, 7008),
    ])
    func dictionaryAndReplyFromJSON(text: String, dictionaryCode: Int?, replyCode: Int?) throws {
        let json = try JSONValue.parse(text)
        func code(_ body: () throws(WCFailure) -> Void) -> Int? {
            do { try body(); return nil } catch { return error.code.rawValue }
        }
        #expect(code { () throws(WCFailure) in _ = try PlistJSON.dictionary(fromJSON: json, name: "\"message\"") } == dictionaryCode)
        #expect(code { () throws(WCFailure) in _ = try PlistJSON.reply(fromJSON: json, name: "--reply") } == replyCode)
    }

    @Test func textIsCanonical() {
        let text = PlistJSON.text(of: [
            "z": .integer(1), "a": .double(2), "d": .data(Data([1, 2, 3])),
            "t": .date(Date(timeIntervalSinceReferenceDate: 0)), "n": .array([.bool(false)]),
        ])
        #expect(text == #"{"a":2.0,"d":{"$data":"AQID"},"n":[false],"t":{"$date":"2001-01-01T00:00:00.000Z"},"z":1}"#)
    }

    static let dateTexts: [(Double, String)] = [
        (0.0, "2001-01-01T00:00:00.000Z"),
        (1.5, "2001-01-01T00:00:01.500Z"),
        (-0.25, "2000-12-31T23:59:59.750Z"),
        (-1e-7, "2000-12-31T23:59:59.9999999Z"),
        (1e-7, "2001-01-01T00:00:00.0000001Z"),
        (730_000_000.123, "2024-02-19T01:46:40.123Z"),
        (Date.distantFuture.timeIntervalSinceReferenceDate, "4001-01-01T00:00:00.000Z"),
        (Date.distantPast.timeIntervalSinceReferenceDate, "0000-12-30T00:00:00.000Z"),  // Julian 0001-01-01
        (-63_113_904_000.0, "0001-01-01T00:00:00.000Z"),
        (252_423_993_599.5, "9999-12-31T23:59:59.500Z"),
        (-978_307_200.0, "1970-01-01T00:00:00.000Z"),
        (3_129_235_200.0, "2100-03-01T00:00:00.000Z"),
        (-26_524_800.0, "2000-02-29T00:00:00.000Z"),
        // The closest to 2001-01-01 that every Double is written as text: 48 and 64 fraction digits.
        (1e-48, "2001-01-01T00:00:00." + String(repeating: "0", count: 47) + "1Z"),
        (1.2345678901234567e-48, "2001-01-01T00:00:00." + String(repeating: "0", count: 47) + "12345678901234567Z"),
        (-1.2345678901234567e-48, "2000-12-31T23:59:59." + String(repeating: "9", count: 47) + "87654321098765433Z"),
    ]

    @Test(arguments: dateTexts)
    func dateText(interval: Double, text: String) throws {
        #expect(PlistValue.date(Date(timeIntervalSinceReferenceDate: interval)).json == .object(["$date": .string(text)]))
        guard case .date(let date) = try PlistValue(json: .object(["$date": .string(text)])) else {
            Issue.record("not a date"); return
        }
        #expect(date.timeIntervalSinceReferenceDate == interval)
    }

    /// Dates whose exact text needs more than the 64 fraction digits a date's text may have (found by
    /// fuzzing: about 320 were written, which WatchPair could not read back) are written as a number,
    /// by both writers, and read back to the same bits.
    @Test(arguments: [
        (#"{"e":{"":{"$date":-0.4e-322}}}"#, #"{"e":{"":{"$date":-4e-323}}}"#),
        (#"{"a":{"$date":1e-70}}"#, #"{"a":{"$date":1e-70}}"#),
        (#"{"a":{"$date":5e-324}}"#, #"{"a":{"$date":5e-324}}"#),
        (#"{"a":{"$date":1.2345678901234568e-49}}"#, #"{"a":{"$date":1.2345678901234568e-49}}"#),
        (#"{"a":{"$date":-1.2345678901234568e-49}}"#, #"{"a":{"$date":-1.2345678901234568e-49}}"#),
    ])
    func datesTooCloseToTheReferenceForTextSurviveTheTrip(input: String, written: String) throws {
        let dictionary = try PlistJSON.dictionary(fromJSONText: input)
        let text = PlistJSON.text(of: dictionary)
        #expect(text == written)
        var bytes: [UInt8] = []
        PlistValue.writeJSON(dictionary: dictionary, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == written)
        #expect(bitEqual(.dictionary(try PlistJSON.dictionary(fromJSONText: text)), .dictionary(dictionary)))
    }

    @Test func otherDateForms() throws {
        func date(_ json: JSONValue) throws -> Double? {
            guard case .date(let d) = try PlistValue(json: .object(["$date": json])) else { return nil }
            return d.timeIntervalSinceReferenceDate
        }
        #expect(try date(.string("2001-01-01t00:00:00z")) == 0)
        #expect(try date(.string("2001-01-01 02:30:00+0230")) == 0)
        #expect(try date(.string("2000-12-31T19:00:00-05:00")) == 0)
        #expect(try date(.string("2001-01-01T00:00:00.1Z")) == 0.1)
        #expect(try date(.string("2001-01-01T00:00:00.000000000000000000000000000001Z")) == 1e-30)
        #expect(try date(.integer(-5)) == -5)
        #expect(try date(.double(1e20)) == 1e20)
        #expect(try date(.string("Infinity")) == .infinity)
        #expect(try date(.string("NaN"))?.isNaN == true)
        // Outside years 0000–9999 and non-finite: a number, or a word.
        #expect(PlistValue.date(Date(timeIntervalSinceReferenceDate: 1e20)).json == .object(["$date": .double(1e20)]))
        #expect(PlistValue.date(Date(timeIntervalSinceReferenceDate: -.infinity)).json == .object(["$date": .string("-Infinity")]))
    }

    @Test(arguments: [
        "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-00-01T00:00:00Z", "2024-01-32T00:00:00Z",
        "2024-01-01T24:00:00Z", "2024-01-01T00:60:00Z", "2024-01-01T00:00:60Z", "2024-01-01T00:00:00",
        "2024-01-01", "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00+24:00", "2024-01-01T00:00:00Zjunk",
        "24-01-01T00:00:00Z", "+2024-01-01T00:00:00Z", "yesterday", "",
        "2024-01-01T00:00:00." + String(repeating: "1", count: 65) + "Z",
    ])
    func invalidDatesNameThePath(text: String) {
        let failure = wcFailure { try PlistValue(json: .object(["items": .array([.integer(0), .integer(1), .object(["$date": .string(text)])])])) }
        #expect(failure?.code == .invalidParameter)
        #expect(failure?.message.contains("at .items[2].$date") == true, "\(String(describing: failure))")
    }

    @Test func errors() {
        let null = wcFailure { try PlistJSON.dictionary(fromJSONText: #"{"items": [1, 2, null]}"#) }
        #expect(null?.code == .payloadUnsupportedTypes)
        #expect(null?.message.contains("at .items[2]") == true)

        let base64 = wcFailure { try PlistJSON.dictionary(fromJSONText: #"{"items": [1, 2, {"$data": "@@@"}]}"#) }
        #expect(base64?.code == .invalidParameter)
        #expect(base64?.message.contains("at .items[2].$data") == true)

        let oddKey = wcFailure { try PlistValue(json: .object(["a b": .null])) }
        #expect(oddKey?.message.contains(#"at ["a b"]"#) == true)
        #expect(wcFailure { try PlistValue(json: .null) }?.message.contains("at .") == true)

        #expect(wcFailure { try PlistJSON.dictionary(fromJSONText: "{") }?.code == .invalidParameter)
        #expect(wcFailure { try PlistJSON.dictionary(fromJSONText: "[1]") }?.code == .invalidParameter)
        #expect(wcFailure { try PlistJSON.dictionary(fromJSONText: "null") }?.code == .invalidParameter)
        #expect(wcFailure { try PlistJSON.dictionary(fromJSONText: #"{"$data": "AA=="}"#) }?.code == .invalidParameter)
        #expect(wcFailure { try PlistValue(json: .object(["$data": .integer(1)])) }?.code == .invalidParameter)
        #expect(wcFailure { try PlistValue(json: .object(["$double": .string("1")])) }?.code == .invalidParameter)
        #expect(wcFailure { try PlistValue(json: .object(["$dict": .array([])])) }?.code == .invalidParameter)
        #expect(wcFailure { try PlistValue(json: .object(["$date": .bool(true)])) }?.code == .invalidParameter)
    }

    @Test func nestingLimit() throws {
        func nested(_ n: Int) -> String { String(repeating: "{\"k\":", count: n - 1) + "{}" + String(repeating: "}", count: n - 1) }
        _ = try PlistJSON.dictionary(fromJSONText: nested(64))
        let failure = wcFailure { try PlistJSON.dictionary(fromJSONText: nested(65)) }
        #expect(failure?.code == .invalidParameter)
        #expect(failure?.message.contains("nested deeper than 64") == true)
    }

    /// Reserved keys survive as ordinary dictionary keys thanks to `$dict`.
    @Test func reservedKeysRoundTrip() throws {
        let d: PlistDictionary = ["$data": .dictionary(["$date": .string("not a date")]), "$dict": .integer(1)]
        let single: PlistDictionary = ["$dict": .dictionary(["$dict": .string("x")])]
        for dictionary in [d, single, ["$data": .string("AA==")]] {
            let text = PlistJSON.text(of: dictionary)
            #expect(try PlistJSON.dictionary(fromJSONText: text) == dictionary, "\(text)")
        }
        #expect(PlistJSON.text(of: ["$data": .string("AA==")]) == #"{"$dict":{"$data":"AA=="}}"#)
    }

    /// Random plists, through JSON text and back: bit-exact (dates, NaN payloads aside, -0.0 included).
    @Test func randomRoundTrips() throws {
        var generator = PlistGenerator(rng: TestRandom(seed: 0x150))
        for _ in 0..<500 {
            let dictionary = generator.dictionary(depth: 4)
            let text = PlistJSON.text(of: dictionary)
            let back = try PlistJSON.dictionary(fromJSONText: text)
            #expect(PlistJSON.text(of: back) == text)
            #expect(bitEqual(.dictionary(normalizedNaN(dictionary)), .dictionary(back)), "\(text)")
        }
    }

    /// JSON carries one NaN; map every NaN to it before comparing bits.
    private func normalizedNaN(_ d: PlistDictionary) -> PlistDictionary {
        d.mapValues(normalizedNaN)
    }

    private func normalizedNaN(_ v: PlistValue) -> PlistValue {
        switch v {
        case .double(let x) where x.isNaN: .double(.nan)
        case .date(let x) where x.timeIntervalSinceReferenceDate.isNaN: .date(Date(timeIntervalSinceReferenceDate: .nan))
        case .array(let a): .array(a.map(normalizedNaN))
        case .dictionary(let d): .dictionary(normalizedNaN(d))
        default: v
        }
    }
}
