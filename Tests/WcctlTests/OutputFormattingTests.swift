import Testing
import WatchPairWire

@testable import WatchPairCLI

@Suite("Output formatting")
struct OutputFormattingTests {
    /// A group none of whose fields is present is left out; fields of no group (a newer daemon's)
    /// come under `other`, sorted, before the counters; values align across groups.
    @Test func statusLinesSkipEmptyGroupsAndSortFieldsOfNoGroup() {
        let result = json("""
            {"zeta":1,"reachable":true,"role":"phone","storeReads":5,"contextSentVersion":4,
             "alpha":{"x":[1,2]},"storeCommits":9}
            """)
        #expect(OutputFormatter.statusLines(result) == [
            "app",
            "  role:               phone",
            "peer",
            "  reachable:          true",
            "context",
            "  contextSentVersion: 4",
            "other",
            "  alpha:              {\"x\":[1,2]}",
            "  zeta:               1",
        ])
        #expect(OutputFormatter.statusLines(result, counters: true).suffix(3) == [
            "counters",
            "  storeCommits:       9",
            "  storeReads:         5",
        ])
    }

    @Test func jsonLinesAreCanonicalWhateverTheInputOrder() {
        let a = json(#"{"b":1,"a":{"d":2.5,"c":"x"},"$data":true}"#)
        let b = json(#"{ "$data" : true , "a" : { "c" : "x" , "d" : 2.5 } , "b" : 1 }"#)
        #expect(OutputFormatter.jsonLine(a) == #"{"$data":true,"a":{"c":"x","d":2.5},"b":1}"#)
        #expect(OutputFormatter.jsonLine(a) == OutputFormatter.jsonLine(b))
        #expect(OutputFormatter.jsonLine(json("1.0")) == "1.0")
    }

    @Test(arguments: [
        (
            "userInfo",
            #"{"deliveryId":7,"seq":3,"transferId":"T","userInfo":{"n":1},"receivedAt":"2024-05-01T12:00:00.000Z"}"#,
            #"{"channel":"userInfo","receivedAt":"2024-05-01T12:00:00.000Z","seq":3,"transferId":"T","userInfo":{"n":1}}"#
        ),
        (
            "applicationContext", #"{"version":4,"context":{"theme":"dark"}}"#,
            #"{"channel":"applicationContext","context":{"theme":"dark"},"version":4}"#
        ),
        (
            "didFinish", #"{"transferId":"T","seq":3,"userInfo":{}}"#,
            #"{"channel":"didFinish","seq":3,"transferId":"T","userInfo":{}}"#
        ),
        (
            "message", #"{"token":9,"variant":"dictionaryWithReply","message":{"ping":1}}"#,
            #"{"channel":"message","message":{"ping":1},"variant":"dictionaryWithReply"}"#
        ),
        (
            "message", #"{"token":9,"variant":"data","data":"AAE="}"#,
            #"{"channel":"message","data":{"$data":"AAE="},"variant":"data"}"#
        ),
    ])
    func receiveRecords(kind: String, data: String, expected: String) {
        let line = OutputFormatter.jsonLine(OutputFormatter.receiveRecord(kind: kind, data: json(data)))
        #expect(line == expected)
    }

    @Test func transferAndContextLinesForPeople() {
        let transfer = json(#"{"transferId":"T1","seq":2,"userInfo":{"a":[1]},"isTransferring":true,"createdAt":"2024-05-01T12:00:00.000Z"}"#)
        #expect(OutputFormatter.transferLine(transfer) == #"T1  seq 2  2024-05-01T12:00:00.000Z  {"a":[1]}"#)
        #expect(OutputFormatter.contextSetLine(json(#"{"version":3,"changed":true}"#)) == "version 3")
        #expect(
            OutputFormatter.contextSetLine(json(#"{"version":3,"changed":false}"#))
                == "version 3 (unchanged: identical to the last context sent, not re-sent)")
        #expect(OutputFormatter.cancelLine(transferId: "T", cancelled: true) == "cancelled T")
    }

    @Test func messageHandlingFollowsTheReplyKind() {
        let none = MessageHandling(follow: false, channels: [], reply: nil)
        #expect(none.handle == nil && none.autoReply == nil)
        let noMessages = MessageHandling(follow: true, channels: [.userInfo], reply: nil)
        #expect(noMessages.handle == nil)
        let plain = MessageHandling(follow: true, channels: [], reply: nil)
        #expect(plain.handle == ["dictionary", "data"] && plain.autoReply == nil)
        let dict = MessageHandling(follow: true, channels: [.message], reply: (json(#"{"ok":1}"#), false))
        #expect(dict.handle == ["dictionary", "dictionaryWithReply", "data"] && dict.autoReply == json(#"{"ok":1}"#))
        let data = MessageHandling(follow: true, channels: [], reply: (json(#"{"$data":"AA=="}"#), true))
        #expect(data.handle == ["dictionary", "data", "dataWithReply"])
    }

    @Test func acknowledgementsPerKind() {
        typealias S = ReceiveSession
        #expect(S.acknowledgement(kind: "userInfo", data: json(#"{"deliveryId":5}"#)) == .deliveryId(5))
        #expect(S.acknowledgement(kind: "didFinish", data: json(#"{"transferId":"T"}"#)) == .finished("T"))
        #expect(S.acknowledgement(kind: "applicationContext", data: json(#"{"version":2}"#)) == .contextVersion(2))
        #expect(S.acknowledgement(kind: "message", data: json(#"{"token":1}"#)) == nil)
        #expect(S.acknowledgement(kind: "userInfo", data: json(#"{"deliveryId":"5"}"#)) == nil)
    }

    @Test(arguments: [
        (#"{"a":1}"#, nil), ("{", 7008), ("[1]", 7008), (#"{"a":null}"#, 7010), (#"{"d":{"$data":"!!"}}"#, 7008),
        (#"{"$data":"AA=="}"#, 7008),
    ] as [(String, Int?)])
    func payloadArgumentsAreCheckedLocally(text: String, code: Int?) {
        do {
            _ = try Payload.dictionary(text, what: "message")
            #expect(code == nil)
        } catch {
            #expect(error.exitStatus == ExitStatus.wcError(code: code ?? 0))
            #expect(error.message.hasPrefix("message: "))
        }
    }
}
