import Foundation
import Testing
import WatchPairHost
import WatchPairWire

@testable import WatchPairCore
@testable import WatchPairDaemon

/// The lines the daemons write per message, transfer and received item (``ControlLines``), held to the
/// literal examples in docs/ControlProtocol.md ("Example lines"): the expectations are written out here,
/// never built by production code, and each must also stand in the document, so neither can drift.
@Suite("Control lines")
struct ControlLinesTests {
    static let id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
    static let payload: PlistDictionary = [
        "n": .integer(1), "text": .string("é \"q\""), "when": .date(Date(timeIntervalSince1970: 1_800_000_000.25)),
        "bytes": .data(Data([0, 255])),
    ]
    static let at = Date(timeIntervalSince1970: 1_800_000_000.5)

    /// The literal lines, as docs/ControlProtocol.md shows them.
    static let golden: [String: String] = [
        "sendNoReply": #"{"id":1,"ok":true,"result":{}}"#,
        "sendReply": #"{"id":1,"ok":true,"result":{"reply":{"pong":true}}}"#,
        "sendDataReply": #"{"id":1,"ok":true,"result":{"reply":"AQID"}}"#,
        "transfer": #"{"id":2,"ok":true,"result":{"isTransferring":true,"seq":3,"transferId":"6F9619FF-8B86-D011-B42D-00C04FC964FF"}}"#,
        "transferComplication": #"{"id":2,"ok":true,"result":{"isCurrentComplicationInfo":true,"isTransferring":true,"remaining":49,"seq":3,"transferId":"6F9619FF-8B86-D011-B42D-00C04FC964FF"}}"#,
        "messageDictionary": #"{"data":{"message":{"ping":1},"token":9,"variant":"dictionaryWithReply"},"event":"message","id":4}"#,
        "messageData": #"{"data":{"data":"AQID","token":10,"variant":"data"},"event":"message","id":4}"#,
        "userInfo": #"{"data":{"deliveryId":7,"receivedAt":"2027-01-15T08:00:00.500Z","seq":3,"transferId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","userInfo":{"bytes":{"$data":"AP8="},"n":1,"text":"é \"q\"","when":{"$date":"2027-01-15T08:00:00.250Z"}}},"event":"userInfo","id":5}"#,
        "userInfoComplication": #"{"data":{"deliveryId":7,"isCurrentComplicationInfo":true,"receivedAt":"2027-01-15T08:00:00.500Z","seq":3,"transferId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","userInfo":{"bytes":{"$data":"AP8="},"n":1,"text":"é \"q\"","when":{"$date":"2027-01-15T08:00:00.250Z"}}},"event":"userInfo","id":5}"#,
        "applicationContext": #"{"data":{"context":{"mode":"run"},"version":4},"event":"applicationContext","id":5}"#,
        "didFinish": #"{"data":{"seq":3,"transferId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","userInfo":{"bytes":{"$data":"AP8="},"n":1,"text":"é \"q\"","when":{"$date":"2027-01-15T08:00:00.250Z"}}},"event":"didFinish","id":5}"#,
        "didFinishFileCorrupt": #"{"data":{"errorCode":7014,"file":{"fileName":"photo.jpg","size":1048576},"seq":2,"transferId":"6F9619FF-8B86-D011-B42D-00C04FC964FF"},"event":"didFinish","id":5}"#,
        "receiveSnapshot": #"{"id":6,"ok":true,"result":{"items":[{"data":{"deliveryId":7,"receivedAt":"2027-01-15T08:00:00.500Z","seq":3,"transferId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","userInfo":{"bytes":{"$data":"AP8="},"n":1,"text":"é \"q\"","when":{"$date":"2027-01-15T08:00:00.250Z"}}},"event":"userInfo"},{"data":{"seq":3,"transferId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","userInfo":{"bytes":{"$data":"AP8="},"n":1,"text":"é \"q\"","when":{"$date":"2027-01-15T08:00:00.250Z"}}},"event":"didFinish"}],"more":false}}"#,
        "receiveSnapshotEmpty": #"{"id":6,"ok":true,"result":{"items":[],"more":true}}"#,
    ]

    static func text(_ line: [UInt8]) -> String { String(decoding: line, as: UTF8.self) }

    /// What each line is written from.
    static func written() throws -> [String: [UInt8]] {
        let encoded = try EncodedDictionary(payload)
        let inbox = InboxTransfer(deliveryId: 7, seq: 3, transferId: id, payload: encoded, receivedAt: at)
        var complication = inbox
        complication.isCurrentComplicationInfo = true
        let outbox = OutboxTransfer(seq: 3, transferId: id, payload: encoded, createdAt: at)
        let complicationOutbox = OutboxTransfer(seq: 3, transferId: id, payload: encoded, createdAt: at, isCurrentComplicationInfo: true)
        let file = OutgoingFile(
            seq: 2, transferId: id, fileName: "photo.jpg", size: 1_048_576, checksum: 0, metadata: nil, createdAt: at,
            spoolPath: "/spool/x", outcome: .corrupt)
        return [
            "sendNoReply": ControlLines.sendResult(1, reply: nil),
            "sendReply": ControlLines.sendResult(1, reply: .dictionary(["pong": .bool(true)])),
            "sendDataReply": ControlLines.sendResult(1, reply: .data(Data([1, 2, 3]))),
            "transfer": ControlLines.transferResult(2, outbox),
            "transferComplication": ControlLines.transferResult(2, complicationOutbox, complicationsRemaining: 49),
            "messageDictionary": ControlLines.message(4, token: 9, IncomingMessage(id: 1, body: .dictionary(["ping": .integer(1)]), wantsReply: true)),
            "messageData": ControlLines.message(4, token: 10, IncomingMessage(id: 2, body: .data(Data([1, 2, 3])), wantsReply: false)),
            "userInfo": ControlLines.event(5, .userInfo(inbox)),
            "userInfoComplication": ControlLines.event(5, .userInfo(complication)),
            "applicationContext": ControlLines.event(5, .applicationContext(StoredContext(version: 4, payload: ["mode": .string("run")]))),
            "didFinish": ControlLines.event(5, .didFinish(outbox)),
            "didFinishFileCorrupt": ControlLines.event(5, .didFinishFile(file)),
            "receiveSnapshot": ControlLines.receiveSnapshot(6, items: [.userInfo(inbox), .didFinish(outbox)], more: false),
            "receiveSnapshotEmpty": ControlLines.receiveSnapshot(6, items: [], more: true),
        ]
    }

    @Test("each line is its literal example, byte for byte, with its newline")
    func linesAreGolden() throws {
        let written = try Self.written()
        #expect(Set(written.keys) == Set(Self.golden.keys))
        for (name, line) in written.sorted(by: { $0.key < $1.key }) {
            #expect(Self.text(line) == (Self.golden[name] ?? "") + "\n", "\(name)")
        }
    }

    @Test("every literal example stands in docs/ControlProtocol.md")
    func examplesAreDocumented() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/ControlProtocol.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        for (name, line) in Self.golden.sorted(by: { $0.key < $1.key }) {
            #expect(text.contains(line), "\(name) is not in docs/ControlProtocol.md")
        }
    }

    @Test("every line parses as the JSON the protocol reads (a response or a stream event)")
    func linesParse() throws {
        for (name, line) in Self.golden {
            let value = try JSONValue.parse(line)
            #expect(value.canonicalText == line, "\(name) is canonical JSON")
        }
    }
}
