import Foundation
import Testing

@testable import WatchPairCore

/// The hub's batch subscription: everything since the last take at once, in order, within its bound,
/// and what was buffered still handed out after the consumer is cancelled.
@Suite("Diagnostic batches")
struct DiagnosticBatchesTests {
    static func event(_ n: Int) -> DiagnosticEvent {
        DiagnosticEvent(.userInfoDelivered, role: .watch, "userInfo \(n) received", channel: .userInfo, seq: UInt64(n))
    }

    @Test func eventsEmittedBetweenTakesComeAsOneBatchInOrder() async throws {
        let hub = DiagnosticsHub()
        let batches = hub.subscribeInBatches()
        for n in 1...3 { hub.emit(Self.event(n)) }
        #expect(await batches.next()?.map(\.seq) == [1, 2, 3])
        hub.emit(Self.event(4))
        #expect(await batches.next()?.map(\.seq) == [4])
    }

    @Test func aBurstEmittedTogetherIsOneBatchForAWaitingConsumerAndEachEventForAStream() async throws {
        let hub = DiagnosticsHub()
        let batches = hub.subscribeInBatches()
        var stream = hub.subscribe().makeAsyncIterator()
        async let first = batches.next()
        // Appended under one lock before the consumer is woken: it cannot see part of the burst.
        hub.emit(contentsOf: (1...100).map(Self.event))
        #expect(await first?.map(\.seq) == (1...100).map { UInt64($0) })
        for n in 1...100 { #expect(await stream.next()?.seq == UInt64(n)) }
        hub.emit(contentsOf: [DiagnosticEvent]())
        hub.emit(Self.event(101))
        #expect(await batches.next()?.map(\.seq) == [101])
    }

    @Test func aBurstPastTheBoundKeepsTheNewestAndCountsTheRest() async throws {
        let hub = DiagnosticsHub(bufferLimit: 2)
        let batches = hub.subscribeInBatches()
        hub.emit(Self.event(1))
        hub.emit(contentsOf: (2...5).map(Self.event))
        #expect(await batches.next()?.map(\.seq) == [4, 5])
        #expect(hub.droppedEvents == 3)
    }

    @Test func aWaitingConsumerWakesForTheNextEvent() async throws {
        let hub = DiagnosticsHub()
        let batches = hub.subscribeInBatches()
        async let first = batches.next()
        // The consumer may or may not be waiting yet; either way it gets the event.
        hub.emit(Self.event(1))
        #expect(await first?.map(\.seq) == [1])
    }

    @Test func pastTheBoundTheOldestAreDroppedAndCounted() async throws {
        let hub = DiagnosticsHub(bufferLimit: 2)
        let batches = hub.subscribeInBatches()
        for n in 1...5 { hub.emit(Self.event(n)) }
        #expect(await batches.next()?.map(\.seq) == [4, 5])
        #expect(hub.droppedEvents == 3)
    }

    @Test func aCancelledConsumerGetsWhatWasBufferedThenTheEnd() async throws {
        let hub = DiagnosticsHub()
        let batches = hub.subscribeInBatches()
        hub.emit(Self.event(1))
        let taken = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var seen: [UInt64] = []
            for await batch in batches { seen += batch.compactMap(\.seq) }
            return seen
        }.value
        #expect(taken == [1])
        // Ended: later events are not kept, and the hub forgets the subscription.
        hub.emit(Self.event(2))
        #expect(await batches.next() == nil)
    }

    @Test func cancellingAWaitingConsumerEndsIt() async throws {
        let hub = DiagnosticsHub()
        let batches = hub.subscribeInBatches()
        let consumer = Task { await batches.next() }
        consumer.cancel()
        #expect(await consumer.value == nil)
    }
}
