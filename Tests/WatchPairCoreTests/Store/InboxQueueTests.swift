import Foundation
import Testing
@testable import WatchPairCore
import WatchPairWire

/// One owner per item: each received userInfo is routed once, on arrival, to one inbox queue; a queue's
/// reader sees only its items, its acknowledgement removes only them, and the routing survives a restart.
@Suite("Store: inbox queues")
struct InboxQueueTests {
    typealias Support = StoreTestSupport
    static let layer = InboxQueue(rawValue: 1)

    @Test("each queue reads and consumes only its own items, also after the store is reopened")
    func queuesAreApart() async throws {
        let incoming = Support.incoming(1...5).map { (seq: $0.seq, transferId: $0.transferId, payload: try! EncodedDictionary($0.payload)) }
        try await Support.withStore { store, configuration throws in
            let receipt = try await store.receive(from: UUID(), encoded: incoming, queues: [2: Self.layer, 4: Self.layer])
            #expect(receipt.accepted.map(\.queue) == [.app, Self.layer, .app, Self.layer, .app])
            #expect(try await store.inbox(after: 0, limit: 10).map(\.seq) == [1, 3, 5], "from the tail")
            #expect(try await store.inbox(after: 0, limit: 10, queue: Self.layer).map(\.seq) == [2, 4])
            // The app takes everything it was shown: the layer's items between stay.
            try await store.consumeInbox(upTo: receipt.accepted[4].deliveryId)
            #expect(try await store.inbox(after: 0, limit: 10).isEmpty)
            #expect(try await store.inbox(after: 0, limit: 10, queue: Self.layer).map(\.seq) == [2, 4])
            #expect(try await store.inboxCount() == 2)
            try await store.close()
            try await Support.reopen(configuration) { reopened in
                // Read from the table now (the tail is empty after a restart).
                #expect(try await reopened.inbox(after: 0, limit: 10).isEmpty)
                let layers = try await reopened.inbox(after: 0, limit: 10, queue: Self.layer)
                #expect(layers.map(\.seq) == [2, 4] && layers.allSatisfy { $0.queue == Self.layer })
                try await reopened.consumeInbox(upTo: layers[0].deliveryId, queue: Self.layer)
                #expect(try await reopened.inbox(after: 0, limit: 10, queue: Self.layer).map(\.seq) == [4])
                // A queue's reader continues after everything it looked at, the other queues' rows too.
                let scan = try await reopened.inboxScan(after: 0, limit: 10, queue: Self.layer)
                #expect(scan.transfers.map(\.seq) == [4] && scan.through == layers[1].deliveryId)
            }
            // withStore closes it again: closing twice is allowed.
        }
    }
}
