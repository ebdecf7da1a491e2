import Foundation
import Testing
@testable import WatchConnection

/// The hand-written header (HeaderText, EnvelopeScanner) against Foundation's JSON, which wrote and read
/// every envelope before: the same bytes out, the same header in, and the decoder for whatever they decline.
@Suite("Wire form written and read without Foundation's JSON")
struct WireEnvelopeTextTests {
    static let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    struct Mixed: Codable, Equatable {
        var text: String
        var number: Double
        var list: [Int]
        var nested: [String: String]
        var missing: String?
    }

    /// The envelope as JSONEncoder writes it, header and body in one container (the old path).
    static func foundation<Body: Encodable>(_ header: WireEnvelope.Header, _ body: Body?) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(WireEnvelope.Full(header: header, body: body)), as: UTF8.self)
    }

    static let unicode = Mixed(
        text: "quote \" backslash \\ slash / tab \t newline \n nul \u{0} bell \u{7} é 日本 🚀 \u{2028}",
        number: -1.5e-7, list: [0, -3, 1_000_000], nested: ["z": "last", "a": "first", "ü": "umlaut"], missing: nil)

    static let headers: [WireEnvelope.Header] = [
        .init(kind: .request, id: id, type: "Greet", reply: true),
        .init(kind: .request, id: id, type: "Greet", reply: false),
        .init(kind: .request, id: id, type: "a/b.c-d_e f", reply: nil),
        .init(kind: .response, id: id, type: "Greet"),
        .init(kind: .response, id: id, type: nil),
        .init(kind: .ping, id: id),
        .init(kind: .pong, id: UUID()),
        .init(v: 2, kind: .request, id: id, type: "Greet", reply: true),
    ]

    @Test("every header shape, with a body of escapes and Unicode, with an empty body and with none: JSONEncoder's bytes")
    func sameBytes() throws {
        for header in Self.headers {
            #expect(HeaderText.envelope(header, body: Self.unicode) == (try Self.foundation(header, Self.unicode)))
            #expect(HeaderText.envelope(header, body: VoidResponse()) == (try Self.foundation(header, VoidResponse())))
            #expect(HeaderText.envelope(header, body: Mixed?.none) == (try Self.foundation(header, Mixed?.none)))
            #expect(try WireEnvelope.encode(header, body: Self.unicode) == (try Self.foundation(header, Self.unicode)))
        }
    }

    @Test("what it cannot write byte for byte (an error, a type name with an escape) takes JSONEncoder, same bytes")
    func declined() throws {
        var failed = WireEnvelope.Header(kind: .response, id: Self.id, type: "Nope")
        failed.error = .handlerNotRegistered("Nope")
        let escaped = WireEnvelope.Header(kind: .request, id: Self.id, type: "say \"hi\" é", reply: true)
        for header in [failed, escaped] {
            #expect(HeaderText.envelope(header, body: VoidResponse()) == nil)
            #expect(try WireEnvelope.encode(header, body: VoidResponse()) == (try Self.foundation(header, VoidResponse())))
        }
    }

    /// Texts the scanner reads, as writers in other languages may put them (order, spaces, extra keys).
    static let readable: [String] = [
        #"{"v":1,"kind":"response","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","type":"Greet","body":{"text":"hi"}}"#,
        #"  { "body" : { "a" : [ 1 , -2.5e3 , true , false , null , "x\"\\\/\b\f\n\r\t\u00e9" , { } , [ ] ] } , "reply" : true , "v" : 1 , "kind" : "request" , "id" : "e621e1f8-c36c-495a-93fc-0c247a3e6e5f" , "type" : "Greet" }"#,
        #"{"v":1,"kind":"ping","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","extra":{"deep":[[[1]]]},"type":null,"reply":null,"error":null}"#,
        #"{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","kind":"pong","v":1}"#,
        "{\"v\":1,\"kind\":\"request\",\"id\":\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\",\"type\":\"日本/🚀\",\"reply\":false,\"body\":\"é\"}\n",
    ]

    @Test("envelopes in any key order and spacing read as JSONDecoder reads them")
    func sameHeader() throws {
        var texts = Self.readable
        for header in Self.headers where header.v == 1 { texts.append(try Self.foundation(header, Self.unicode)) }
        for text in texts {
            let scanned = EnvelopeScanner.header(of: text)
            #expect(scanned != nil, "\(text)")
            #expect(scanned == (try JSONDecoder().decode(WireEnvelope.Header.self, from: Data(text.utf8))), "\(text)")
        }
    }

    /// Texts the scanner leaves to the decoder: errors, escapes in header fields, anything not strict JSON,
    /// duplicates, another version. Each reads (or fails) exactly as the decoder alone would.
    static let declinedTexts: [String] = [
        #"{"v":1,"kind":"response","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","type":"Nope","error":{"code":"handlerNotRegistered","message":"m","requestType":"Nope"}}"#,
        #"{"v":1,"kind":"request","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","type":"G\u0072eet"}"#,
        #"{"v":1,"kind":"request","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","body":{"s":"\ud83d\ude80"}}"#,
        #"{"v":1,"kind":"request","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","body":{"s":"\ud83d"}}"#,
        #"{"v":1,"kind":"request","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","body":{"n":01}}"#,
        #"{"v":1,"kind":"request","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","body":{"n":1.}}"#,
        #"{"v":1,"kind":"request","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","body":{"a":[1,]}}"#,
        #"{"v":1,"kind":"request","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","body":{"s":"\x"}}"#,
        #"{"v":1,"kind":"request","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","body":{"s":"\u12G4"}}"#,
        #"{"v":1,"kind":"request","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"} x"#,
        #"{"v":1,"v":1,"kind":"request","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#,
        #"{"v":2,"kind":"request","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#,
        #"{"v":1.0,"kind":"request","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#,
        #"{"v":1,"kind":"other","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#,
        #"{"v":1,"kind":"request","id":"not-a-uuid"}"#,
        #"{"v":1,"kind":"request"}"#,
        #"{"v":1,"kind":"request","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","reply":1}"#,
        "{\"v\":1,\"kind\":\"request\",\"id\":\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\",\"body\":\"tab\there\"}",
        String(repeating: "[", count: 100),
        "{\"v\":1,\"kind\":\"request\",\"id\":\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\",\"body\":" + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}",
        "not json", "", "{", "[]",
    ]

    @Test("what the scanner declines reads exactly as JSONDecoder reads it")
    func declinedRead() {
        for text in Self.declinedTexts {
            #expect(EnvelopeScanner.header(of: text) == nil, "\(text)")
            let decoded = try? JSONDecoder().decode(WireEnvelope.Header.self, from: Data(text.utf8))
            let read = try? WireEnvelope.header(of: text)
            #expect(read == (decoded?.v == WireEnvelope.version ? decoded : nil), "\(text)")
        }
    }

    /// A body read, or the text of its error.
    enum Read<Body: Equatable>: Equatable {
        case value(Body)
        case failure(String)
    }

    struct BodyOnly<Body: Decodable>: Decodable { var body: Body }

    /// The body as the decoder reads it over the whole envelope (the old path), or its error's text.
    static func foundationBody<Body: Decodable & Equatable>(_ text: String, as type: Body.Type) -> Read<Body> {
        do {
            return .value(try JSONDecoder().decode(BodyOnly<Body>.self, from: Data(text.utf8)).body)
        } catch {
            return .failure(String(describing: WatchConnectionError.decodingFailed(description: "\(Body.self): \(error)")))
        }
    }

    static func read<Body: Decodable & Equatable>(_ text: String, as type: Body.Type) -> Read<Body> {
        do { return .value(try WireEnvelope.body(of: text, as: Body.self)) } catch { return .failure(String(describing: error)) }
    }

    @Test("a body read from its own bytes is the body the decoder reads over the whole envelope")
    func sameBody() throws {
        for header in Self.headers where header.v == 1 {
            let text = try Self.foundation(header, Self.unicode)
            #expect(EnvelopeScanner.body(of: text) { String(decoding: $0, as: UTF8.self) } != nil, "\(text)")
            #expect(Self.read(text, as: Mixed.self) == Self.foundationBody(text, as: Mixed.self), "\(text)")
        }
        let spaced = Self.readable[1]
        #expect(EnvelopeScanner.body(of: spaced) { String(decoding: $0, as: UTF8.self) }
            == #"{ "a" : [ 1 , -2.5e3 , true , false , null , "x\"\\\/\b\f\n\r\t\u00e9" , { } , [ ] ] }"#)
        #expect(Self.read(Self.readable[4], as: String.self) == .value("é"))
        #expect(Self.read(Self.readable[0], as: [String: String].self) == .value(["text": "hi"]))
        #expect(Self.read(Self.readable[0], as: [String: String]?.self) == .value(["text": "hi"]))
    }

    /// Envelopes whose body the scanner does not hand over (none, twice, an envelope it declines) or that
    /// the type cannot read: each reads, or fails with the same text, as the decoder alone.
    static let bodyCases: [String] = [
        #"{"v":1,"kind":"response","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","type":"Greet"}"#,
        #"{"v":1,"kind":"response","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","body":{"text":"a"},"body":{"text":"b"}}"#,
        #"{"v":1,"kind":"response","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","body":{"text":1}}"#,
        #"{"v":1,"kind":"response","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","body":null}"#,
        #"{"v":1,"kind":"response","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","body":{"text":"\ud83d\ude80"}}"#,
        #"{"v":2,"kind":"response","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","body":{"text":"v2"}}"#,
        #"{"v":1,"kind":"response","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","body":{"text":"x"}"#,
        #"{"v":1,"kind":"response","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","body":{"text":"x"}} trailing"#,
    ]

    @Test("a missing, repeated, null, mistyped or declined body reads or fails exactly as the decoder has it")
    func bodyDeclined() {
        for text in Self.bodyCases {
            #expect(Self.read(text, as: [String: String].self) == Self.foundationBody(text, as: [String: String].self), "\(text)")
            #expect(Self.read(text, as: [String: String]?.self) == Self.foundationBody(text, as: [String: String]?.self), "\(text)")
        }
        #expect(EnvelopeScanner.body(of: Self.bodyCases[0]) { _ in true } == nil)
        #expect(EnvelopeScanner.body(of: Self.bodyCases[1]) { _ in true } == nil)
        #expect(Self.read(Self.bodyCases[3], as: [String: String]?.self) == .value(nil))
    }

    @Test("ids in the canonical form read by hand as UUID(uuidString:) reads them; any other form is left to it")
    func uuids() {
        let canonical = [
            "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "e621E1F8-c36C-495a-93Fc-0C247a3e6E5f",
            "00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", UUID().uuidString,
        ]
        let other = [
            "", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F0", "E621E1F8C36C495A93FC0C247A3E6E5F",
            "E621E1F8-C36C-495A-93FC+0C247A3E6E5F", "E621E1F8-C36C-495A-93F-C0C247A3E6E5F", "G621E1F8-C36C-495A-93FC-0C247A3E6E5F",
            "{621E1F8-C36C-495A-93FC-0C247A3E6E5}", "E621E1F8-C36C-495A-93FC-0C247A3E6E5 ", "E621E1F8 C36C 495A 93FC 0C247A3E6E5F",
        ]
        for text in canonical + other {
            var copy = text
            let byHand = copy.withUTF8 { JSONCursor.uuid($0[...]) }
            if canonical.contains(text) {
                #expect(byHand != nil && byHand == UUID(uuidString: text), "\(text)")
            } else {
                #expect(byHand == nil, "\(text)")
            }
            let envelope = #"{"v":1,"kind":"ping","id":"\#(text)"}"#
            let decoded = try? JSONDecoder().decode(WireEnvelope.Header.self, from: Data(envelope.utf8))
            #expect(EnvelopeScanner.header(of: envelope) == decoded, "\(text)")
        }
    }
}
