import Foundation
import Testing
import WatchPairQuirks
import WatchPairWire

@testable import WatchPairDaemon
@testable import WatchPairHost

@Suite("Control requests: the router and each operation's request type")
struct ControlRouterTests {
    /// Every operation the daemons serve, read by its own request type; the handlers are not run here.
    static let router = DaemonOperations.readingRouter

    func parse(_ line: String) -> Result<Int64, ControlLineError> {
        Self.router.route(Array(line.utf8)).map(\.id)
    }

    /// `line` read by `Operation`'s request type.
    func decode<Operation: ControlOperation>(_ type: Operation.Type, _ line: String) throws -> Operation {
        var fields = try ControlEnvelope(line: Array(line.utf8)).fields()
        return try Operation(fields: &fields)
    }

    /// Lines that must be refused with 7008: (line, the id the error carries, a phrase of its message).
    @Test(arguments: [
        ("not json", nil, "not JSON"),
        ("{\"id\":1,\"op\":\"status\"", nil, "not JSON"),
        ("[1,2]", nil, "not a JSON object"),
        ("\"status\"", nil, "not a JSON object"),
        ("{\"op\":\"status\"}", nil, "'id'"),
        ("{\"id\":\"7\",\"op\":\"status\"}", nil, "'id'"),
        ("{\"id\":1.5,\"op\":\"status\"}", nil, "'id'"),
        ("{\"id\":3}", 3, "'op'"),
        ("{\"id\":3,\"op\":\"launch\"}", 3, "unknown op 'launch'"),
        ("{\"id\":4,\"op\":\"send\"}", 4, "needs 'message'"),
        ("{\"id\":4,\"op\":\"send\",\"message\":null}", 4, "needs 'message'"),
        ("{\"id\":4,\"op\":\"send\",\"message\":[1]}", 4, "'message' must be an object"),
        ("{\"id\":4,\"op\":\"send\",\"message\":{},\"noReply\":1}", 4, "'noReply' must be true or false"),
        ("{\"id\":4,\"op\":\"send\",\"message\":{},\"timeout\":-1}", 4, "'timeout' must be a number of seconds"),
        ("{\"id\":4,\"op\":\"send\",\"message\":{},\"timeout\":\"5\"}", 4, "'timeout' must be a number"),
        ("{\"id\":5,\"op\":\"sendData\",\"data\":\"%%%\"}", 5, "'data' must be base64"),
        ("{\"id\":6,\"op\":\"transfer\",\"userInfo\":\"x\"}", 6, "'userInfo' must be an object"),
        ("{\"id\":7,\"op\":\"cancel\"}", 7, "needs 'transferId'"),
        ("{\"id\":7,\"op\":\"cancel\",\"transferId\":\"nope\"}", 7, "UUID"),
        ("{\"id\":8,\"op\":\"contextSet\"}", 8, "needs 'context'"),
        ("{\"id\":9,\"op\":\"receive\",\"channels\":[\"mail\"]}", 9, "'channels' must be"),
        ("{\"id\":9,\"op\":\"receive\",\"channels\":\"message\"}", 9, "'channels' must be an array"),
        ("{\"id\":9,\"op\":\"receive\",\"follow\":true,\"handle\":[\"everything\"]}", 9, "'handle' must be"),
        ("{\"id\":9,\"op\":\"receive\",\"handle\":[\"dictionary\"]}", 9, "need 'follow': true"),
        ("{\"id\":10,\"op\":\"ack\"}", 10, "needs 'deliveryId'"),
        ("{\"id\":10,\"op\":\"ack\",\"deliveryId\":-1}", 10, "non-negative integer"),
        ("{\"id\":10,\"op\":\"ack\",\"finished\":[\"x\"]}", 10, "UUID"),
        ("{\"id\":11,\"op\":\"answer\",\"token\":1}", 11, "exactly one"),
        ("{\"id\":11,\"op\":\"answer\",\"reply\":{}}", 11, "needs 'token'"),
        ("{\"id\":11,\"op\":\"answer\",\"token\":1,\"reply\":{},\"errorCode\":7014}", 11, "exactly one"),
        ("{\"id\":11,\"op\":\"answer\",\"token\":1,\"errorCode\":42}", 11, "WCError code"),
        ("{\"id\":12,\"op\":\"events\",\"follow\":\"yes\"}", 12, "'follow' must be true or false"),
        ("{\"id\":13,\"op\":\"quirkSet\"}", 13, "needs 'name'"),
        ("{\"id\":13,\"op\":\"quirkSet\",\"name\":\"lateRepy\"}", 13, "the quirks are: phantomReachability"),
        ("{\"id\":13,\"op\":\"quirkSet\",\"name\":\"lateReply\",\"probability\":2}", 13, "probability 2.0 is outside 0...1"),
        ("{\"id\":13,\"op\":\"quirkSet\",\"name\":\"lateReply\",\"count\":0}", 13, "count 0 must be at least 1"),
        ("{\"id\":13,\"op\":\"quirkSet\",\"name\":\"lateReply\",\"delay\":\"3s...1s\"}", 13, "delay '3s...1s'"),
        ("{\"id\":14,\"op\":\"quirkClear\",\"name\":\"nope\"}", 14, "no quirk named 'nope'"),
    ] as [(String, Int64?, String)])
    func rejects(line: String, id: Int64?, phrase: String) {
        guard case .failure(let rejection) = parse(line) else {
            Issue.record("accepted: \(line)")
            return
        }
        #expect(rejection.id == id)
        #expect(rejection.failure.code == .invalidParameter)
        #expect(rejection.failure.message.contains(phrase), "\(rejection.failure.message)")
    }

    @Test func rejectsOversizeAndInvalidUTF8Lines() {
        let big = "{\"id\":1,\"op\":\"transfer\",\"userInfo\":{\"x\":\"" + String(repeating: "a", count: ControlEnvelope.lineLimit) + "\"}}"
        guard case .failure(let rejection) = parse(big) else {
            Issue.record("accepted an oversize line")
            return
        }
        #expect(rejection.id == nil && rejection.failure.message.contains("longer than"))
        guard case .failure(let utf8) = Self.router.route([0x7B, 0xFF, 0x7D]) else {
            Issue.record("accepted invalid UTF-8")
            return
        }
        #expect(utf8.failure.message.contains("UTF-8"))
    }

    @Test func readsEachFieldStraightFromTheLineAndIgnoresUnknownOnes() throws {
        let send = try decode(SendOperation.self, #"{"id":7,"op":"send","message":{"a":1.0,"d":{"$data":"AAE="}},"noReply":true,"timeout":2,"extra":[1]}"#)
        #expect(send.send.noReply && send.send.timeout == 2)
        #expect(send.send.body == .dictionary(["a": .double(1.0), "d": .data(Data([0, 1]))]))

        let receive = try decode(
            ReceiveOperation.self, #"{"id":1,"op":"receive","follow":true,"channels":["message"],"handle":["dataWithReply"],"autoReply":{"ok":true}}"#)
        #expect(receive.follow && receive.channels == [.message] && receive.handle == [.dataWithReply])
        #expect(receive.autoReply == .dictionary(["ok": .bool(true)]))

        let ack = try decode(AckOperation.self, #"{"id":2,"op":"ack","deliveryId":3,"finished":["6F9619FF-8B86-D011-B42D-00C04FC964FF"],"contextVersion":null}"#)
        #expect(ack.deliveryId == 3 && ack.finished?.count == 1 && ack.contextVersion == nil)

        let answer = try decode(AnswerOperation.self, #"{"id":3,"op":"answer","token":9,"errorCode":7014}"#)
        guard case .error(let code) = answer.answer.outcome else {
            Issue.record("not an error answer: \(answer.answer.outcome)")
            return
        }
        #expect(answer.answer.token == 9 && code.rawValue == 7014)

        let sync = try decode(SyncSetOperation.self, #"{"id":4,"op":"syncSet","key":"k","value":[1,{"a":null}],"policy":"manual"}"#)
        #expect(sync.key == "k" && sync.value == .array([.integer(1), .object(["a": .null])]) && sync.policy == .manual && sync.availability == nil)

        for op in ["status", "transfers", "events", "contextGet", "receive", "health", "syncList"] {
            #expect(try parse("{\"id\":1,\"op\":\"\(op)\"}").get() == 1)
        }
    }

    /// A payload's `null` is 7010 and a single reserved key is not a dictionary, as when the daemon
    /// converted a JSON tree: the conventions hold without one.
    @Test func quirkRequestsReadTheirSetting() throws {
        let set = try decode(QuirkSetOperation.self, #"{"id":1,"op":"quirkSet","name":"lateReply","probability":0.5,"count":3,"seed":7,"delay":"1s...3s"}"#)
        #expect(set.quirk == .lateReply)
        #expect(set.setting == (try QuirkSetting(probability: 0.5, count: 3, seed: 7, delay: .seconds(1) ... .seconds(3))))
        #expect(try decode(QuirkSetOperation.self, #"{"id":1,"op":"quirkSet","name":"lostReply"}"#).setting == .always)
        #expect(try decode(QuirkClearOperation.self, #"{"id":2,"op":"quirkClear"}"#).quirk == nil)
        #expect(try decode(QuirkClearOperation.self, #"{"id":2,"op":"quirkClear","name":"stuckUserInfo"}"#).quirk == .stuckUserInfo)
    }

    @Test func payloadsKeepTheirErrorsWithoutATree() {
        guard case .failure(let null) = parse(#"{"id":5,"op":"transfer","userInfo":{"a":[1,null]}}"#) else {
            Issue.record("accepted a null")
            return
        }
        #expect(null.id == 5 && null.failure.code == .payloadUnsupportedTypes && null.failure.message.contains("at .a[1]"))
        guard case .failure(let single) = parse(#"{"id":6,"op":"contextSet","context":{"$data":"AA=="}}"#) else {
            Issue.record("accepted a $data value as a context")
            return
        }
        #expect(single.failure.code == .invalidParameter && single.failure.message.contains("must be a dictionary"))
    }

    @Test func responsesAreOneCompactLine() {
        let failure = ControlResponse.failure(nil, WCFailure(.invalidParameter, "bad\nline"))
        #expect(failure.line == #"{"error":{"code":7008,"message":"bad\nline","name":"invalidParameter"},"id":null,"ok":false}"#)
        let event = ControlResponse.streamEvent(4, "userInfo", .object(["seq": .integer(1)]))
        #expect(event.line == #"{"data":{"seq":1},"event":"userInfo","id":4}"#)
    }
}

@Suite("Control line splitting")
struct ControlLineSplitterTests {
    @Test func splitsOnNewlinesAcrossChunks() {
        var splitter = ControlLineSplitter(limit: 100)
        #expect(splitter.append(Array("{\"a\":".utf8)) == [])
        #expect(splitter.append(Array("1}\r\n\n{\"b\"".utf8)) == [.line(Array("{\"a\":1}".utf8))])
        #expect(splitter.append(Array(":2}\n".utf8)) == [.line(Array("{\"b\":2}".utf8))])
        #expect(splitter.append(Array("tail".utf8)) == [])
        #expect(splitter.finish() == [.line(Array("tail".utf8))])
    }

    @Test func aLineOverTheLimitStopsTheSplitter() {
        var splitter = ControlLineSplitter(limit: 8)
        #expect(splitter.append(Array("12345678\n".utf8)) == [.line(Array("12345678".utf8))])
        #expect(splitter.append(Array("123456789X".utf8)) == [.tooLong])
        #expect(splitter.overflowed)
        #expect(splitter.append(Array("\n{}\n".utf8)) == [])
        #expect(splitter.finish() == [])
    }
}
