import Testing
import WatchPairWire

/// The one control codec (docs/ControlProtocol.md): requests, responses and stream events round-trip
/// through their lines with every field and every number's kind kept; lines are canonical; malformed
/// lines are rejected with a reason.
@Suite("Control codec")
struct ControlCodecTests {
    static func json(_ text: String) -> JSONValue {
        (try? JSONValue.parse(text)) ?? .null
    }

    /// One request per operation, with the fields that operation reads (payloads with doubles that look
    /// like integers, `$data`/`$date`, nesting and unicode).
    static let requests: [ControlRequest] = {
        func make(_ id: Int64, _ op: String, _ fill: (inout ControlRequest) -> Void = { _ in }) -> ControlRequest {
            var request = ControlRequest(id: id, op: op)
            fill(&request)
            return request
        }
        return [
            make(1, "status"),
            make(2, "send") {
                $0.set("message", json(#"{"f":1.0,"i":-3,"big":9223372036854775807,"d":{"$data":"AAE="},"t":{"$date":"2024-05-01T12:00:00Z"},"é":["x",[true,false]]}"#))
                $0.set("timeout", 2.5)
            },
            make(3, "send") {
                $0.set("message", JSONValue.object([:]))
                $0.set("noReply", true)
                $0.set("timeout", 10)
            },
            make(4, "sendData") { $0.set("data", "AAEC/w==") },
            make(5, "transfer") { $0.set("userInfo", json(#"{"n":1,"x":0.1,"e":1e300}"#)) },
            make(6, "transfers"),
            make(7, "cancel") { $0.set("transferId", "7C9D5E0A-1B2C-4D3E-8F90-123456789ABC") },
            make(8, "contextSet") { $0.set("context", json(#"{"mode":"dark"}"#)) },
            make(9, "contextGet") { $0.set("received", true) },
            make(10, "receive") {
                $0.set("follow", true)
                $0.set("channels", ["message", "userInfo"])
                $0.set("handle", ["dictionaryWithReply"])
                $0.set("autoReply", json(#"{"ok":true}"#))
            },
            make(11, "ack") {
                $0.set("deliveryId", 12)
                $0.set("finished", ["A", "B"])
                $0.set("contextVersion", UInt64(Int64.max))
            },
            make(12, "answer") {
                $0.set("token", 0)
                $0.set("reply", json(#"{"$data":"AA=="}"#))
            },
            make(13, "answer") {
                $0.set("token", 5)
                $0.set("errorCode", 7012)
            },
            make(-14, "events") { $0.set("follow", false) },
            // `enabled` was dropped by the codec, so `wcctl --side watch complication enable` failed 7008.
            make(15, "setComplication") { $0.set("enabled", true) },
            make(16, "setComplication") { $0.set("enabled", false) },
            make(17, "transferComplication") { $0.set("userInfo", json(#"{"t":21}"#)) },
        ]
    }()

    @Test("a request survives its line", arguments: requests)
    func requestRoundTrip(request: ControlRequest) throws {
        #expect(try ControlRequest(line: request.line) == request)
        #expect(try ControlRequest(line: request.lineBytes.dropLast()) == request)
        #expect(request.lineBytes.last == UInt8(ascii: "\n"))
        #expect(try ControlRequest(json: request.json) == request)
    }

    static let responses: [ControlResponse] = [
        .success(1),
        .success(2, json(#"{"reply":{"x":1.0,"n":[1,2.5,"s"]}}"#)),
        .failure(3, WCFailure(.notReachable, "the watch app is not running")),
        .failure(nil, WCFailure(.invalidParameter, "the request is not JSON")),
        ControlResponse(id: 4, ok: false, error: {
            var error = ControlError(WCFailure(.genericError, "m"))
            error.code = 7099
            error.name = "future"
            return error
        }()),
        .streamEvent(5, "userInfo", json(#"{"deliveryId":1,"seq":1,"transferId":"T","userInfo":{"f":2.0},"receivedAt":"2024-05-01T12:00:00.000Z"}"#)),
        .streamEvent(6, "message", json(#"{"token":7,"variant":"data","data":"AAE="}"#)),
        .streamEvent(7, "dropped", json(#"{"count":3}"#)),
    ]

    @Test("a response or stream event survives its line", arguments: responses)
    func responseRoundTrip(response: ControlResponse) throws {
        #expect(try ControlResponse(line: response.line) == response)
        #expect(try ControlResponse(line: response.lineBytes.dropLast()) == response)
        #expect(try ControlResponse(json: response.json) == response)
    }

    @Test func requestLinesAreCompactWithSortedKeysAndOnlyTheFieldsSet() {
        var request = ControlRequest(id: 3, op: "send")
        request.set("message", Self.json(#"{"z":1.0,"a":{"$data":"AA=="}}"#))
        request.set("timeout", 2.5)
        #expect(
            String(decoding: request.lineBytes, as: UTF8.self)
                == #"{"id":3,"message":{"a":{"$data":"AA=="},"z":1.0},"op":"send","timeout":2.5}"# + "\n")

        var ack = ControlRequest(id: 4, op: "ack")
        ack.set("finished", ["T"])
        ack.set("deliveryId", 12)
        #expect(ack.line == #"{"deliveryId":12,"finished":["T"],"id":4,"op":"ack"}"#)
    }

    @Test func responseLinesAreTheDocumentedShapes() {
        #expect(ControlResponse.success(1).line == #"{"id":1,"ok":true,"result":{}}"#)
        #expect(
            ControlResponse.failure(nil, WCFailure(.invalidParameter, "m")).line
                == #"{"error":{"code":7008,"message":"m","name":"invalidParameter"},"id":null,"ok":false}"#)
        #expect(ControlResponse.streamEvent(2, "dropped", .object(["count": .integer(1)])).line == #"{"data":{"count":1},"event":"dropped","id":2}"#)
    }

    @Test func responsesDecodeKeepingUnknownErrorCodes() throws {
        let ok = try ControlResponse(line: #"{"id":1,"ok":true,"result":{"x":1.0}}"#)
        #expect(ok.id == 1 && ok.ok == true && ok.result == .object(["x": .double(1.0)]))

        let failure = try ControlResponse(line: #"{"id":null,"ok":false,"error":{"code":7099,"name":"future","message":"m"}}"#)
        #expect(failure.id == nil)
        #expect(failure.error?.code == 7099 && failure.error?.name == "future" && failure.error?.message == "m")
        let unnamed = try ControlResponse(line: #"{"id":1,"ok":false,"error":{"code":7099}}"#)
        #expect(unnamed.error?.name == "unknown")

        let event = try ControlResponse(line: #"{"id":2,"event":"userInfo","data":{}}"#)
        #expect(event.event == "userInfo" && event.ok == nil)
    }

    @Test(arguments: [
        "not json", "[1]", #"{"id":1}"#, #"{"id":"1","ok":true}"#, #"{"id":1,"ok":"yes"}"#,
        #"{"id":1,"ok":false}"#, #"{"id":1,"event":3}"#, #"{"id":1,"ok":false,"error":{"code":"7007"}}"#,
    ])
    func malformedResponsesAreRejected(line: String) {
        #expect(throws: ControlResponseError.self) { try ControlResponse(line: line) }
    }

    @Test(arguments: [
        (#"not json"#, nil as Int64?),
        (#"[1]"#, nil),
        (#"{"op":"status"}"#, nil),
        (#"{"id":1.5,"op":"status"}"#, nil),
        (#"{"id":7}"#, 7),
        (#"{"id":7,"op":5}"#, 7),
        (#"{"id":7,"id":8,"op":"status"}"#, nil),
        (#"{"id":7,"op":"status"} x"#, nil),
    ])
    // What an operation's fields may hold is the router's to check (ControlRouterTests).
    func malformedRequestsAreRejectedWithTheirId(line: String, id: Int64?) {
        #expect {
            try ControlRequest(line: line)
        } throws: { error in
            guard let error = error as? ControlLineError else { return false }
            return error.id == id && error.failure.code == .invalidParameter
        }
    }
}
