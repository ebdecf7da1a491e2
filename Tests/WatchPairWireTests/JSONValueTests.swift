import Foundation
import Testing
import WatchPairTesting
import WatchPairWire

@Suite struct JSONValueTests {
    /// Texts and what they parse to (also seeds of the `json` fuzz target, `FuzzCorpusWriter`).
    static let parsed: [(String, JSONValue)] = [
        ("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null),
        ("1", .integer(1)), ("0", .integer(0)), ("-0", .integer(0)),
        ("1.5", .double(1.5)), ("1.0", .double(1.0)), ("1e2", .double(100)), ("2E-1", .double(0.2)),
        ("9223372036854775807", .integer(.max)), ("-9223372036854775808", .integer(.min)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808)),
        (#""a\"b\\c\/d\b\f\n\r\t""#, .string("a\"b\\c/d\u{8}\u{c}\n\r\t")),
        (#""\u00e9\u0000\uD83C\uDF4E""#, .string("é\u{0}🍎")),
        ("\"é🍎\"", .string("é🍎")),
        (" [ 1 , true , \"x\" , [ ] , { } ] ", .array([.integer(1), .bool(true), .string("x"), .array([]), .object([:])])),
        (#"{"b":{"c":[null]},"a":-2.5}"#, .object(["b": .object(["c": .array([.null])]), "a": .double(-2.5)])),
    ]

    @Test(arguments: parsed)
    func parse(text: String, expected: JSONValue) throws {
        #expect(try JSONValue.parse(text) == expected)
    }

    @Test func negativeZeroKeepsItsSign() throws {
        guard case .double(let d) = try JSONValue.parse("-0.0") else { Issue.record("not a double"); return }
        #expect(d.sign == .minus)
    }

    /// Texts that are not JSON.
    static let rejected = [
        "", " ", "tru", "True", "nul", "01", "1.", ".5", "-", "1e", "+1", "0x10", "NaN", "Infinity",
        "1e400", "-1e400", "[1,]", "[1 2]", "{\"a\":1,}", "{a:1}", "{\"a\" 1}", "{\"a\":1,\"a\":2}",
        "\"abc", "\"\\x\"", "\"\\uD800\"", "\"\\uDC00\"", "\"\\uD800\\u0041\"", "\"\\u12G4\"",
        "\"tab\there\"", "[1] 2", "{} {}", "[",
    ]

    @Test(arguments: rejected)
    func rejects(text: String) {
        let failure = wcFailure { try JSONValue.parse(text) }
        #expect(failure?.code == .invalidParameter, "\(text)")
        #expect(failure?.message.hasPrefix("Invalid JSON at byte ") == true)
    }

    @Test func depthLimit() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        _ = try JSONValue.parse(ok)
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(wcFailure { try JSONValue.parse(deep) }?.message.contains("nesting deeper than 512") == true)
        let hostile = String(repeating: "{\"a\":", count: 100_000)
        #expect(wcFailure { try JSONValue.parse(hostile) }?.code == .invalidParameter)
    }

    @Test func canonicalText() {
        let value = JSONValue.object([
            "b": .array([.integer(-1), .double(1.0), .double(0.1), .double(1e-7), .double(-0.0), .bool(false), .null]),
            "a": .string("q\"\\\n\u{1}é/"),
            "é": .object([:]),
            "B": .double(.nan),
        ])
        #expect(value.canonicalText
            == #"{"B":null,"a":"q\"\\\n\u0001é/","b":[-1,1.0,0.1,1e-07,-0.0,false,null],"é":{}}"#)
    }

    @Test func canonicalTextRoundTrips() throws {
        var rng = TestRandom(seed: 99)
        var generator = PlistGenerator(rng: TestRandom(seed: 98))
        for _ in 0..<300 {
            let value = randomJSON(depth: 4, rng: &rng, generator: &generator)
            #expect(try JSONValue.parse(value.canonicalText) == value)
        }
    }

    @Test func codableKeepsBooleansAndNumbersApart() throws {
        let decoder = JSONDecoder()
        func decode(_ text: String) throws -> JSONValue { try decoder.decode(JSONValue.self, from: Data(text.utf8)) }
        #expect(try decode("true") == .bool(true))
        #expect(try decode("false") == .bool(false))
        #expect(try decode("1") == .integer(1))
        #expect(try decode("0") == .integer(0))
        #expect(try decode("1.5") == .double(1.5))
        #expect(try decode("-7") == .integer(-7))
        #expect(try decode("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try decode(#"[true,1,"1",null,{"k":[false]}]"#)
            == .array([.bool(true), .integer(1), .string("1"), .null, .object(["k": .array([.bool(false)])])]))
    }

    @Test func codableRoundTrip() throws {
        let value = JSONValue.object([
            "s": .string("é\n"), "i": .integer(.min), "d": .double(2.5), "b": .bool(true), "n": .null,
            "a": .array([.object([:]), .array([])]),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
        #expect(try JSONValue.parse(String(decoding: data, as: UTF8.self)) == value)
    }

    private func randomJSON(depth: Int, rng: inout TestRandom, generator: inout PlistGenerator) -> JSONValue {
        switch Int.random(in: 0...(depth > 0 ? 7 : 5), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .integer(Int64(bitPattern: rng.next()))
        case 3:
            let d = generator.double()
            return .double(d.isFinite ? d : 0.5)
        case 4, 5: return .string(generator.string())
        case 6: return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in randomJSON(depth: depth - 1, rng: &rng, generator: &generator) })
        default:
            var o: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                o[generator.string()] = randomJSON(depth: depth - 1, rng: &rng, generator: &generator)
            }
            return .object(o)
        }
    }
}
