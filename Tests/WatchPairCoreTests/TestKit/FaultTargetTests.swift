import Foundation
import Testing
import WatchPairTesting
import WatchPairWire

/// One frame of every type, and both kinds of error frame, named for the tables.
enum SampleFrames {
    static let all: [(name: String, frame: Frame)] = [
        ("hello", .hello(Hello(
            role: .phone, pairId: "pair", storeId: UUID(), launch: .foreground,
            resume: ResumeState(peerStoreId: nil, lastUserInfoSeq: 0, contextVersion: 0)))),
        ("message", .message(id: 1, wantsReply: true, body: .dictionary(["q": .string("?")]))),
        ("reply", .reply(id: 1, body: .dictionary(["a": .string("!")]))),
        ("messageError", .error(relatesTo: 1, code: .deliveryFailed, reason: "no handler")),
        ("linkError", .error(relatesTo: 0, code: .deliveryFailed, reason: "gap")),
        ("userInfo", .userInfo(seq: 1, after: 0, transferId: UUID(), payload: ["n": .integer(1)])),
        ("complicationUserInfo", .complicationUserInfo(
            seq: 2, after: 1, transferId: UUID(), payload: try! EncodedDictionary(["n": .integer(2)]))),
        ("ack", .ack(upTo: 2)),
        ("context", .context(version: 1, payload: ["list": .string("milk")])),
        ("contextAck", .contextAck(version: 1)),
        ("ping", .ping(nonce: 7)),
        ("pong", .pong(nonce: 7)),
        ("fileOffer", .fileOffer(FileOffer(
            seq: 1, after: 0, transferId: UUID(), fileName: "a.bin", size: 3, checksum: 0, metadata: nil))),
        ("fileChunk", .fileChunk(seq: 1, offset: 0, bytes: Data([1, 2, 3]))),
        ("fileAck", .fileAck(seq: 1, offset: 3)),
        ("fileEnd", .fileEnd(seq: 1, status: .received)),
        ("launch", .launch(.background)),
    ]

    static var names: Set<String> { Set(all.map { $0.name }) }
}

@Suite("FaultTarget: which frames each target hits")
struct FaultTargetTests {
    /// Each target and the sample frames it must hit; every other sample it must let through.
    static let table: [(FaultTarget, Set<String>)] = [
        (.write, []),
        (.anyFrame, SampleFrames.names),
        (.handshake, ["hello"]),
        (.message, ["message"]),
        (.reply, ["reply", "messageError"]),
        (.userInfo, ["userInfo", "complicationUserInfo"]),
        (.context, ["context"]),
        (.file, ["fileOffer", "fileChunk", "fileAck", "fileEnd"]),
        (.acknowledgement, ["ack", "contextAck", "fileAck"]),
        (.frame(.error), ["messageError", "linkError"]),
    ] + FrameType.allCases.filter { $0 != .error }.map { (.frame($0), [$0.name]) }

    @Test("the samples hold every frame type")
    func samplesCoverEveryType() {
        #expect(Set(SampleFrames.all.map { $0.frame.type }) == Set(FrameType.allCases))
    }

    @Test("a target hits exactly its frames", arguments: table)
    func matches(_ target: FaultTarget, _ hits: Set<String>) {
        for (name, frame) in SampleFrames.all {
            #expect(target.matches(frame) == hits.contains(name), "\(target) against \(name)")
        }
    }
}
