import Foundation
import Testing
import WatchConnection

@Suite("Wire form")
struct WireEnvelopeTests {
    @Test("a request is the documented JSON, readable without Swift")
    func requestShape() throws {
        let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let header = WireEnvelope.Header(v: 1, kind: .request, id: id, type: Greet.requestType, reply: true)
        let text = try WireEnvelope.encode(header, body: Greet(name: "Ada"))
        #expect(text == #"{"body":{"name":"Ada"},"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","kind":"request","reply":true,"type":"Greet","v":1}"#)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(object?["type"] as? String == "Greet")
        #expect(try WireEnvelope.body(of: text, as: Greet.self).name == "Ada")
    }

    @Test("a response written by hand (any language) is read")
    func handWrittenResponse() throws {
        let text = #"{"v":1,"kind":"response","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","type":"Greet","body":{"text":"hi"}}"#
        let header = try WireEnvelope.header(of: text)
        #expect(header.kind == .response && header.error == nil)
        #expect(try WireEnvelope.body(of: text, as: Greeting.self) == Greeting(text: "hi"))
    }

    @Test("an error response names the failure and the type")
    func errorResponse() throws {
        var header = WireEnvelope.Header(v: 1, kind: .response, id: UUID(), type: "Nope")
        header.error = .handlerNotRegistered("Nope")
        let read = try WireEnvelope.header(of: WireEnvelope.encode(header))
        #expect(read.error?.connectionError == .handlerNotRegistered(requestType: "Nope"))
        #expect(read.error?.message.contains("'Nope'") == true)
    }

    @Test("bad input: not JSON, another version", arguments: ["not json", #"{"v":2,"kind":"request","id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#])
    func badInput(text: String) {
        #expect(throws: WatchConnectionError.self) { try WireEnvelope.header(of: text) }
    }

    struct Outer<Value: Codable & Sendable>: WatchRequest {
        typealias Response = VoidResponse
        var value: Value
    }

    @Test("the default type name is the type's own name, each type's its own, the same each time")
    func typeName() {
        #expect(Greet.requestType == "Greet")
        #expect(Greet.requestType == "Greet")
        #expect(Outer<Int>.requestType == "Outer<Int>")
        #expect(Outer<String>.requestType == "Outer<String>")
        #expect(Outer<Int>.requestType == String(describing: Outer<Int>.self))
    }
}
