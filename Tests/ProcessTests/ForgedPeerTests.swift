import Foundation
import Testing
import WatchPairWire

/// A client on the watch's link socket that answers with a phone hello claiming every transfer received
/// (the black-box test that once made the watch report 20 of 20 queued transfers finished): the real
/// watchd refuses the handshake and keeps every transfer queued.
@Suite("Forged peer")
struct ForgedPeerTests {
    @Test("a forged hello claiming seqs never sent is refused; nothing queued is finished")
    func forgedHello() async throws {
        try await PairSandbox.with { pair in
            try await pair.startReady(.watch)
            var sent: [String] = []
            for n in 1...20 { sent.append(try await pair.transfer(#"{"n":\#(n)}"#, side: .watch)) }
            // The watch's store id, from its activation event, so the forged claim is about its store.
            let events = try await pair.ok(["--json", "events"], side: .watch)
            let activated = try #require(events.json.first { $0["event"]?.stringValue == "sessionActivated" }, "\(events)")
            let message = try #require(activated["message"]?.stringValue)
            let storeId = try #require(
                message.split(separator: " ").lazy.compactMap { UUID(uuidString: String($0.trimmingCharacters(in: .punctuationCharacters))) }.first,
                "no store id in \(message)")

            let forger = try await RawControlClient(path: pair.linkPath(.watch))
            defer { forger.close() }
            let hello = Hello(
                role: .phone, pairId: "default", storeId: UUID(), launch: .foreground,
                resume: ResumeState(peerStoreId: storeId, lastUserInfoSeq: UInt64(1) << 63, contextVersion: 0))
            try await forger.write(FrameEncoder.encode(.hello(hello)))

            try await pair.pollUntil("the watch to refuse the handshake") {
                let events = try await pair.ok(["--json", "events"], side: .watch)
                return events.json.contains { $0["event"]?.stringValue == "handshakeFailed" }
            }
            let outstanding = try await pair.ok(["--json", "transfers"], side: .watch)
            #expect(outstanding.json.compactMap { $0["transferId"]?.stringValue } == sent, "\(outstanding)")
            let finished = try await pair.receivePending(.watch, channels: ["didFinish"])
            #expect(finished.isEmpty, "\(finished)")
            #expect(try await pair.status(.watch)["outstandingTransfers"] == .integer(20))
        }
    }
}
