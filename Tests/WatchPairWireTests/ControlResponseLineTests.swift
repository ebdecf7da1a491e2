import Testing

@testable import WatchPairWire

/// Response and event lines are written member by member (`ControlResponse+Line.swift`); they must stay
/// byte for byte the canonical text of `json` that every client reads.
@Suite("Control response lines")
struct ControlResponseLineTests {
    static let payload: JSONValue = .object([
        "text": .string("quote \" backslash \\ newline \n tab \t unit \u{1F} é 🚲"),
        "n": .integer(-7), "d": .double(1.0), "nan": .double(.nan), "yes": .bool(true), "none": .null,
        "list": .array([.integer(1), .object([:]), .array([])]), "ä": .object(["Ω": .string("ω")]),
    ])

    static let responses: [ControlResponse] = [
        .success(1),
        .success(.max, payload),
        .success(.min, .object(["reply": payload])),
        .failure(3, WCFailure(.messageReplyTimedOut, "no reply within 3 s")),
        .failure(nil, WCFailure(.invalidParameter, "Invalid JSON at byte 0: \"quoted\" \\ é.")),
        ControlResponse(id: 4, ok: false, error: ControlError(WCFailure(.genericError, ""))),
        .streamEvent(5, "message", payload),
        .streamEvent(6, "end", .object([:])),
        .streamEvent(7, "é \"kind\"", .array([payload])),
        ControlResponse(id: nil, event: "diagnostic"),
        ControlResponse(id: 8, ok: true, result: .null),
    ]

    @Test("a line is json's canonical text and a newline", arguments: responses.indices)
    func lineIsTheCanonicalText(index: Int) {
        let response = Self.responses[index]
        #expect(response.lineBytes == response.json.canonicalUTF8 + [UInt8(ascii: "\n")])
    }

    @Test("a success line with members is the tree's line")
    func successLine() {
        let line = ControlResponse.successLine(42) { result in
            result.add("isTransferring", bool: true)
            result.add("nested") { $0.add("ä", string: "\"") }
            result.add("seq", integer: 7)
        }
        let tree = ControlResponse.success(42, .object([
            "seq": .integer(7), "isTransferring": .bool(true), "nested": .object(["ä": .string("\"")]),
        ]))
        #expect(line == tree.json.canonicalUTF8 + [UInt8(ascii: "\n")])
        #expect(ControlResponse.successLine(1) { _ in } == ControlResponse.success(1).json.canonicalUTF8 + [UInt8(ascii: "\n")])
    }

    @Test("an event line with members is the tree's line")
    func eventLine() {
        let line = ControlResponse.streamEventLine(-1, "userInfo") { data in
            data.add("payload", json: Self.payload)
            data.add("token", integer: 9)
        }
        let tree = ControlResponse.streamEvent(-1, "userInfo", .object(["token": .integer(9), "payload": Self.payload]))
        #expect(line == tree.json.canonicalUTF8 + [UInt8(ascii: "\n")])
    }
}
