import Testing
import WatchConnection

@Suite("What a failed request counts as")
struct RequestOutcomeTests {
    @Test("link failures count in health and the suggestions", arguments: [
        WatchConnectionError.notActivated, .notReachable, .timeout, .expired,
        .sessionError(code: 7007, description: ""), .sessionError(code: 7014, description: ""),
        .sessionError(code: 7011, description: ""), .sessionError(code: 7012, description: ""),
        .sessionError(code: 7001, description: ""),
    ])
    func counted(error: WatchConnectionError) {
        #expect(RequestOutcome(failure: error) == .failed(error))
    }

    @Test("failures that say nothing of the link do not count", arguments: [
        // The caller or the queue's bound ended it.
        WatchConnectionError.cancelled, .dropped,
        // The request itself is at fault: sending it again fails the same way.
        .payloadTooLarge(size: 70_000, limit: 65_536), .encodingFailed(description: ""),
        .sessionError(code: 7008, description: ""), .sessionError(code: 7009, description: ""),
        .sessionError(code: 7010, description: ""),
        // The peer answered: the link works.
        .handlerNotRegistered(requestType: "T"), .handlerError(requestType: "T", description: ""),
        .decodingFailed(description: ""),
        // Local storage.
        .queueStorageFailed(description: ""),
    ])
    func notCounted(error: WatchConnectionError) {
        #expect(RequestOutcome(failure: error) == nil)
    }

    @Test("the request errors are exactly 7008, 7009 and 7010", arguments: 7000...7020)
    func blamesRequest(code: Int) {
        #expect(WatchConnectionError.sessionError(code: code, description: "").blamesRequest == [7008, 7009, 7010].contains(code))
    }
}
