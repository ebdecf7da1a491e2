import Foundation
import Testing
import WatchPairControlClient
import WatchPairCore
import WatchPairTesting
import WatchPairTransport
import WatchPairWire

@testable import WatchPairDaemon

/// A live message shown to a `receive` client that never answers fails at the sender with 7012 once the
/// daemon's answer timeout has passed on its clock (one sleeper for every answer owed), and the token is
/// gone then. The phone is played by hand on the watch's link socket, so nothing else waits on the clock.
@Suite("answers owed by control clients", .timeLimit(.minutes(3)))
struct AnswerTimeoutTests {
    @Test("an unanswered message fails with 7012 after the answer timeout; a late answer finds no token")
    func unansweredMessageExpires() async throws {
        let directory = try TemporaryDirectory()
        var configuration = testConfiguration(.watch, in: directory.path)
        configuration.keepAlive.interval = nil
        let clock = ManualClock()
        try await withRunningDaemon(configuration, clock: clock, events: EventCollector()) { watch in
            try await AsyncControlClientConnection.withConnection(to: configuration.paths.control) { app in
                let follow = try await app.call(["id": 1, "op": "receive", "follow": true, "handle": ["dictionaryWithReply"]])
                #expect(follow["ok"] == .bool(true))
                let phone = UnixSocketTransport(
                    configuration: .init(
                        listener: .none, peerLinkPath: configuration.paths.link, peerControlPath: configuration.paths.control,
                        allowedUIDs: [getuid()]),
                    logger: quietLogger)
                let link = try await phone.connect()
                let hello = Hello(
                    role: .phone, pairId: configuration.engine.pairId, storeId: UUID(), launch: .foreground,
                    resume: ResumeState(peerStoreId: nil, lastUserInfoSeq: 0, contextVersion: 0))
                try await link.write(FrameEncoder.encode(.hello(hello)) + FrameEncoder.encode(
                    .message(id: 1, wantsReply: true, body: .dictionary(["q": .integer(1)]))))
                let message = try await app.event("message")
                let token = try #require(message["data"]?["token"])
                // The deadline was armed before the message was shown: whether its sleeper is on the clock
                // yet or not, it has passed once the clock has.
                clock.advance(by: MessageRouter.answerTimeout)
                let answer = try await Self.answer(to: 1, on: link)
                #expect(answer.code == .messageReplyTimedOut, "\(answer)")
                #expect(answer.reason.contains("did not answer"), "\(answer)")
                let late = try await app.call(["id": 2, "op": "answer", "token": token, "reply": ["a": 1]])
                #expect(late["error"]?["code"] == .integer(7008))
                await link.close()
            }
        }
    }

    /// The error frame answering message `id` (the watch's hello and anything else come first).
    private static func answer(to id: UInt64, on link: any TransportConnection) async throws -> (code: WCErrorCode, reason: String) {
        try await withTimeout {
            var decoder = FrameDecoder()
            for try await chunk in link.inbound {
                decoder.append(chunk)
                while let frame = try decoder.next() {
                    if case .error(let relatesTo, let code, let reason) = frame, relatesTo == id { return (code, reason) }
                }
            }
            throw TransportError(.connectionClosed, "the link ended before the answer to message \(id)")
        }
    }
}
