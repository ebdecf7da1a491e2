import Foundation
import Synchronization
import Testing

@testable import WatchPairCore

/// The hub's batch subscription: everything since the last take at once, in order, within its bound; the
/// arrival hook once per batch; and what was buffered still handed out after the subscription finished.
@Suite("Diagnostic batches")
struct DiagnosticBatchesTests {
    static func event(_ n: Int) -> DiagnosticEvent {
        DiagnosticEvent(.userInfoDelivered, role: .watch, "userInfo \(n) received", channel: .userInfo, seq: UInt64(n))
    }

    @Test func eventsEmittedBetweenTakesComeAsOneBatchInOrder() {
        let hub = DiagnosticsHub()
        let batches = hub.subscribeInBatches()
        for n in 1...3 { hub.emit(Self.event(n)) }
        #expect(batches.take().map(\.seq) == [1, 2, 3])
        #expect(batches.take().isEmpty)
        hub.emit(Self.event(4))
        #expect(batches.take().map(\.seq) == [4])
    }

    @Test func theHookRunsForTheFirstEventAfterATakeOnly() {
        let hub = DiagnosticsHub()
        let batches = hub.subscribeInBatches()
        let calls = Mutex(0)
        batches.onArrival { calls.withLock { $0 += 1 } }
        #expect(calls.withLock { $0 } == 0)
        for n in 1...3 { hub.emit(Self.event(n)) }
        #expect(calls.withLock { $0 } == 1)
        _ = batches.take()
        hub.emit(Self.event(4))
        hub.emit(Self.event(5))
        #expect(calls.withLock { $0 } == 2)
    }

    @Test func eventsWaitingWhenTheHookIsSetRunItAtOnce() {
        let hub = DiagnosticsHub()
        let batches = hub.subscribeInBatches()
        hub.emit(Self.event(1))
        let calls = Mutex(0)
        batches.onArrival { calls.withLock { $0 += 1 } }
        #expect(calls.withLock { $0 } == 1)
        hub.emit(Self.event(2))
        #expect(calls.withLock { $0 } == 1)
        #expect(batches.take().map(\.seq) == [1, 2])
    }

    @Test func pastTheBoundTheOldestAreDroppedAndCounted() {
        let hub = DiagnosticsHub(bufferLimit: 2)
        let batches = hub.subscribeInBatches()
        for n in 1...5 { hub.emit(Self.event(n)) }
        #expect(batches.take().map(\.seq) == [4, 5])
        #expect(hub.droppedEvents == 3)
    }

    @Test func aFinishedSubscriptionHandsOutWhatWasBufferedThenNothing() {
        let hub = DiagnosticsHub()
        let batches = hub.subscribeInBatches()
        let calls = Mutex(0)
        batches.onArrival { calls.withLock { $0 += 1 } }
        hub.emit(Self.event(1))
        batches.finish()
        #expect(batches.take().map(\.seq) == [1])
        // Ended: later events are not kept, the hook does not run, and the hub forgets the subscription.
        hub.emit(Self.event(2))
        #expect(batches.take().isEmpty)
        #expect(calls.withLock { $0 } == 1)
        #expect(hub.droppedEvents == 0)
    }
}
