import Foundation
import Testing

@testable import WatchPairWire

/// `PlistValue.writeJSON` writes `json`'s canonical text without the tree; the control socket's message
/// and userInfo lines depend on it being byte for byte the same.
@Suite("Plist JSON text")
struct PlistJSONTextTests {
    /// Payloads that cover every plist kind, the reserved keys, escaping, non-ASCII keys (whose order is
    /// by UTF-8 bytes), empty and nested containers, and dates and doubles JSON cannot hold as they are.
    static let payloads: [PlistDictionary] = [
        [:],
        ["k": .string("v")],
        [
            "text": .string("quote \" backslash \\ newline \n return \r tab \t bell \u{07} unit \u{1F} é 🚲"),
            "": .string(""),
            "z": .integer(.max), "a": .integer(.min), "zero": .integer(0),
            "yes": .bool(true), "no": .bool(false),
            "half": .double(1.5), "one": .double(1.0), "tiny": .double(.leastNonzeroMagnitude), "big": .double(-1.7976931348623157e308),
            "inf": .double(.infinity), "-inf": .double(-.infinity), "nan": .double(.nan),
            "when": .date(Date(timeIntervalSince1970: 1_795_000_000.123456)),
            "epoch": .date(Date(timeIntervalSinceReferenceDate: 0)),
            "beforeYear0": .date(Date(timeIntervalSinceReferenceDate: -1e12)),
            "afterYear9999": .date(Date(timeIntervalSinceReferenceDate: 1e15)),
            "never": .date(Date(timeIntervalSinceReferenceDate: .nan)),
            "bytes": .data(Data([0, 1, 0xFE, 0xFF])), "noBytes": .data(Data()),
            "ä": .string("Ä"), "Ω": .string("ω"), "🚲": .string("bike"), "Z": .string("upper"),
        ],
        [
            "nested": .dictionary([
                "list": .array([.integer(1), .string("x"), .array([]), .dictionary([:]), .dictionary(["$data": .string("not data")])]),
                "é": .dictionary(["deeper": .dictionary(["deepest": .array([.bool(true)])])]),
            ]),
        ],
        // A dictionary whose one key is reserved is wrapped in `$dict`, at the top and inside.
        ["$date": .string("not a date")],
        ["$dict": .dictionary(["$double": .double(2)])],
        // A reserved key beside others is an ordinary member.
        ["$data": .string("x"), "other": .integer(1)],
    ]

    @Test("a dictionary's text is json's canonical text", arguments: payloads.indices)
    func dictionaryText(index: Int) {
        let payload = Self.payloads[index]
        var out: [UInt8] = []
        PlistValue.writeJSON(dictionary: payload, into: &out)
        #expect(String(decoding: out, as: UTF8.self) == PlistValue.dictionary(payload).json.canonicalText)
    }

    @Test("each member's value alone is its json's canonical text", arguments: payloads.indices)
    func valueText(index: Int) {
        for (key, value) in Self.payloads[index] {
            var out: [UInt8] = []
            value.writeJSON(into: &out)
            #expect(String(decoding: out, as: UTF8.self) == value.json.canonicalText, "at \(key)")
        }
    }

    @Test("a timestamp member is the value of the date's $date form")
    func dateMembers() {
        for date in [0, 1_795_000_000.123456, -1e12, 1e15, .nan, .infinity].map(Date.init(timeIntervalSinceReferenceDate:)) {
            var writer = JSONMemberWriter()
            writer.add("at", date: date)
            let expected = JSONValue.object(["at": PlistValue.date(date).json["$date"]!])
            #expect(writer.finish() == expected.canonicalUTF8)
        }
    }
}
