import Foundation
import Testing
@testable import WatchConnection

/// The sender reads a response envelope in one pass; what it concludes must be what the two reads
/// (header, then body) concluded, for every envelope, readable or not.
@Suite("Reading a response in one pass")
struct ResponseReadingTests {
    private static let id = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"

    @Test(
        "the same outcome as the header read then the body read",
        arguments: [
            #"{"v":1,"kind":"response","id":"\#(id)","type":"Greet","body":{"text":"hi"}}"#,
            #"{"v":1,"kind":"response","id":"\#(id)","type":"Nope","error":{"code":"handlerNotRegistered","message":"none","requestType":"Nope"}}"#,
            #"{"v":1,"kind":"response","id":"\#(id)","type":"Greet","error":{"code":"handlerError","message":"boom","requestType":"Greet"},"body":{"text":"hi"}}"#,
            #"{"v":2,"kind":"response","id":"\#(id)","type":"Greet","body":{"text":"hi"}}"#,
            #"{"v":1,"kind":"response","id":"\#(id)","type":"Greet"}"#,
            #"{"v":1,"kind":"response","id":"\#(id)","type":"Greet","body":null}"#,
            #"{"v":1,"kind":"response","id":"\#(id)","type":"Greet","body":{"other":1}}"#,
            #"{"v":1,"kind":"response","type":"Greet","body":{"text":"hi"}}"#,
            "not json",
        ])
    func sameAsTwoReads(text: String) {
        let reading = WireEnvelope.reading(response: text, as: Greeting.self)
        let (succeeded, body) = Self.twoReads(text)
        #expect(reading.succeeded == succeeded)
        #expect(reading.body == body)
    }

    @Test("a response without a body type is the envelope itself when it succeeded")
    func untypedReading() {
        let text = #"{"v":1,"kind":"response","id":"\#(Self.id)","type":"Greet","body":{"text":"hi"}}"#
        let reading = WireEnvelope.reading(response: text)
        #expect(reading.succeeded && reading.body == .success(text))
        #expect(!WireEnvelope.reading(response: "not json").succeeded)
    }

    /// What the sender concluded before: the header (its version and error), then the body.
    private static func twoReads(_ text: String) -> (Bool, Result<Greeting, WatchConnectionError>) {
        let header: WireEnvelope.Header
        do {
            header = try WireEnvelope.header(of: text)
        } catch {
            return (false, .failure(error))
        }
        if let error = header.error { return (false, .failure(error.connectionError)) }
        do {
            return (true, .success(try WireEnvelope.body(of: text, as: Greeting.self)))
        } catch {
            return (true, .failure(error))
        }
    }
}
