import Testing
import WatchPairWire

@testable import WatchPairControlClient

/// The async face's shared state, one step per line.
@Suite("Async connection state")
struct AsyncConnectionStateTests {
    @Test func linesAreTakenByMatchAndTheRestKeptInOrder() {
        var state = AsyncConnectionState(maxUnreadLines: 10)
        guard case .wait(generation: 0) = state.take(where: { _ in true }) else { Issue.record("nothing to take yet"); return }
        _ = state.deliver([.streamEvent(1, "a", .null), .success(2), .streamEvent(1, "b", .null)], end: nil)
        guard case .line(let response) = state.take(where: { $0.isResponse(to: 2) }) else { Issue.record("no response"); return }
        #expect(response == .success(2))
        #expect(state.unread.map(\.event) == ["a", "b"])
        guard case .wait(generation: 1) = state.take(where: { $0.id == 3 }) else { Issue.record("should wait"); return }
    }

    @Test func theEndIsSeenOnceNoLineMatches() throws {
        var state = AsyncConnectionState(maxUnreadLines: 10)
        _ = state.deliver([.success(1)], end: .closed)
        #expect(state.reading == false)
        guard case .ended(.closed) = state.take(where: { $0.id == 2 }) else { Issue.record("should have ended"); return }
        #expect(try state.takeAll() == [.success(1)])
        #expect(try state.takeAll() == [])
    }

    @Test func tooManyUnreadLinesEndTheConnection() {
        var state = AsyncConnectionState(maxUnreadLines: 2)
        _ = state.deliver([.success(1)], end: nil)
        #expect(state.reading)
        _ = state.deliver([.success(2)], end: nil)
        #expect(!state.reading)
        #expect(throws: ControlClientError.tooManyUnreadLines(limit: 2)) { try state.takeAll() }
        guard case .line = state.take(where: { $0.id == 2 }) else { Issue.record("lines already read stay takeable"); return }
    }

    @Test func aFailureIsNotReplacedByALaterEnd() {
        var state = AsyncConnectionState(maxUnreadLines: 2)
        _ = state.deliver([], end: .lineTooLong(limit: 8))
        _ = state.finish()
        #expect(state.finished)
        #expect(throws: ControlClientError.lineTooLong(limit: 8)) { try state.takeAll() }
    }
}
