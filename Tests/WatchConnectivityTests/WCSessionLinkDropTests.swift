import Foundation
import Synchronization
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairWire

@testable import WatchConnectivity

/// Answers each message after a short random delay from another thread; every fifth one never.
final class SlowReplier: EventRecorder, WCSessionDelegate, @unchecked Sendable {
    init() { super.init(recordsStateChanges: false) }

    func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState, error: (any Error)?) {
        record(.activated(activationState, errorCode: errorCode(error)))
    }
    func session(_ session: WCSession, didReceiveMessage message: [String: Any], replyHandler: @escaping ([String: Any]) -> Void) {
        let index = (message["i"] as? Int) ?? 0
        guard index % 5 != 4 else { return }
        let reply = Unchecked(replyHandler)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int.random(in: 0...20))) {
            reply.value(["i": index])
        }
    }
}

@Suite("WCSession under link drops")
struct WCSessionLinkDropTests {
    @Test("every sendMessage reports exactly one of reply or error while the link keeps dropping")
    func exactlyOneOutcome() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let network = InMemoryNetwork()
        let phoneDelegate = SlowReplier()
        let watchDelegate = FullDelegate(recordsStateChanges: false)
        let phone = await activatedSession(
            directory.configuration(.phone, replyTimeout: .seconds(1)), delegate: phoneDelegate,
            overrides: SessionOverrides(transport: network.transport(for: .phone)))
        let watch = await activatedSession(
            directory.configuration(.watch, replyTimeout: .seconds(1)), delegate: watchDelegate,
            overrides: SessionOverrides(transport: network.transport(for: .watch)))
        await waitUntilReachable(phone)

        let count = 60
        let outcomes = (0..<count).map { _ in SendOutcome() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for index in 0..<count {
                    watch.sendMessage(["i": index], replyHandler: outcomes[index].replyHandler(), errorHandler: outcomes[index].errorHandler())
                    if index % 7 == 3 { await Task.yield() }
                }
            }
            group.addTask {
                for _ in 0..<6 {
                    try? await Task.sleep(for: .milliseconds(15))
                    network.dropAllConnections()
                }
            }
        }
        for outcome in outcomes { await outcome.wait() }
        // A final round trip through the same queue, then no handler may have fired a second time.
        await waitUntilReachable(watch)
        let last = SendOutcome()
        watch.sendMessage(["i": 1000], replyHandler: last.replyHandler(), errorHandler: last.errorHandler())
        await last.wait()
        var replies = 0
        for (index, outcome) in outcomes.enumerated() {
            #expect(outcome.count == 1, "message \(index): \(outcome.replies) \(outcome.errors)")
            for reply in outcome.replies { #expect(reply == ["i": .integer(Int64(index))]) }
            for code in outcome.errors { #expect([7007, 7012, 7014].contains(code), "message \(index): \(code)") }
            replies += outcome.replies.count
        }
        #expect(outcomes.contains { !$0.errors.isEmpty }, "the drops made no message fail")
        await phone.shutdown()
        await watch.shutdown()
    }
}
