import Foundation
import Testing
import WatchPairHost
import WatchPairWire

@testable import WatchPairCore
@testable import WatchPairDaemon

/// The hot response and event lines are written without a `JSONValue` tree (`ControlLines`); each must
/// be byte for byte the line the tree gave, which `wcctl`, `wcbench` and the apps read. The expected
/// lines are built here the way the handlers built them before.
@Suite("Control lines")
struct ControlLinesTests {
    static let id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
    static let at = Date(timeIntervalSince1970: 1_795_000_000.123456)

    static let payloads: [PlistDictionary] = [
        [:],
        [
            "text": .string("quote \" backslash \\ newline \n tab \t unit \u{1F} é 🚲"), "": .string(""),
            "n": .integer(.min), "one": .double(1.0), "nan": .double(.nan), "yes": .bool(true),
            "when": .date(at), "far": .date(Date(timeIntervalSinceReferenceDate: 1e15)), "bytes": .data(Data([0, 0xFF])),
            "ä": .string("Ä"), "Z": .integer(1),
        ],
        ["nested": .dictionary(["list": .array([.integer(1), .array([]), .dictionary(["é": .dictionary([:])])])])],
        ["$data": .string("a reserved key alone")],
    ]

    static let requestIds: [Int64] = [0, 7, .max, .min]

    /// What the tree gave: the canonical text of the response's JSON and a newline.
    static func treeLine(_ response: ControlResponse) -> String {
        response.json.canonicalText + "\n"
    }

    static func text(_ line: [UInt8]) -> String { String(decoding: line, as: UTF8.self) }

    @Test("send's result, without a reply, with a dictionary, with data", arguments: payloads.indices)
    func sendResult(index: Int) {
        let dictionary = Self.payloads[index]
        for requestId in Self.requestIds {
            #expect(Self.text(ControlLines.sendResult(requestId, reply: nil)) == Self.treeLine(.success(requestId, .object([:]))))
            #expect(
                Self.text(ControlLines.sendResult(requestId, reply: .dictionary(dictionary)))
                    == Self.treeLine(.success(requestId, .object(["reply": ControlJSON.json(dictionary)]))))
        }
        let data = Data((0..<(index * 40)).map { UInt8(truncatingIfNeeded: $0 * 37) })
        #expect(
            Self.text(ControlLines.sendResult(9, reply: .data(data)))
                == Self.treeLine(.success(9, .object(["reply": .string(data.base64EncodedString())]))))
    }

    @Test("transfer's and transferComplication's results", arguments: [false, true])
    func transferResult(complication: Bool) throws {
        let transfer = OutboxTransfer(
            seq: UInt64.max, transferId: Self.id, payload: try EncodedDictionary(["k": .string("v")]), createdAt: Self.at,
            isCurrentComplicationInfo: complication)
        var queued: [String: JSONValue] = [
            "transferId": .string(transfer.transferId.uuidString), "seq": ControlJSON.integer(transfer.seq), "isTransferring": .bool(true),
        ]
        #expect(Self.text(ControlLines.transferResult(3, transfer)) == Self.treeLine(.success(3, .object(queued))))
        queued["isCurrentComplicationInfo"] = .bool(transfer.isCurrentComplicationInfo)
        queued["remaining"] = .integer(49)
        #expect(Self.text(ControlLines.transferResult(3, transfer, complicationsRemaining: 49)) == Self.treeLine(.success(3, .object(queued))))
    }

    @Test("message events, dictionary and data, each variant", arguments: payloads.indices)
    func messageEvent(index: Int) {
        let bodies: [MessageBody] = [.dictionary(Self.payloads[index]), .data(Data(repeating: UInt8(index), count: index * 5))]
        for body in bodies {
            for wantsReply in [false, true] {
                let message = IncomingMessage(id: 1, body: body, wantsReply: wantsReply)
                var data: [String: JSONValue] = ["token": ControlJSON.integer(UInt64.max), "variant": .string(message.variant.rawValue)]
                switch body {
                case .dictionary(let dictionary): data["message"] = ControlJSON.json(dictionary)
                case .data(let bytes): data["data"] = .string(bytes.base64EncodedString())
                }
                #expect(
                    Self.text(ControlLines.message(11, token: UInt64.max, message))
                        == Self.treeLine(.streamEvent(11, "message", .object(data))))
            }
        }
    }

    @Test("userInfo events, as the snapshot's tree writes them", arguments: payloads.indices)
    func userInfoEvent(index: Int) throws {
        for (complication, receivedAt) in [(false, Self.at), (true, Date(timeIntervalSinceReferenceDate: -1e12))] {
            let transfer = InboxTransfer(
                deliveryId: UInt64(index), seq: UInt64(Int64.max) + 1, transferId: Self.id,
                payload: try EncodedDictionary(Self.payloads[index]), receivedAt: receivedAt, isCurrentComplicationInfo: complication)
            #expect(
                Self.text(ControlLines.userInfo(12, transfer))
                    == Self.treeLine(.streamEvent(12, "userInfo", ReceiveOperations.userInfoData(transfer))))
        }
    }

    @Test("didFinish events, as the snapshot's tree writes them", arguments: payloads.indices)
    func finishedEvent(index: Int) throws {
        let transfer = OutboxTransfer(
            seq: UInt64(index), transferId: Self.id, payload: try EncodedDictionary(Self.payloads[index]), createdAt: Self.at)
        #expect(
            Self.text(ControlLines.finished(13, transfer))
                == Self.treeLine(.streamEvent(13, "didFinish", ReceiveOperations.finishedData(transfer))))
    }
}
