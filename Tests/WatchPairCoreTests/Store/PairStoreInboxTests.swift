import Foundation
import Testing
@testable import WatchPairCore
import WatchPairWire

@Suite("Store: userInfo inbox and dedupe")
struct PairStoreInboxTests {
    typealias Support = StoreTestSupport

    @Test("receive stores in order with increasing delivery ids; inbox pages")
    func receiveAndPage() async throws {
        try await Support.withStore { store, _ throws in
            let peer = UUID()
            let incoming = Support.incoming(1...5)
            let receipt = try await store.receive(from: peer, incoming)
            #expect(receipt.lastSeq == 5)
            #expect(receipt.rejectedForSpace == 0)
            #expect(receipt.accepted.map(\.seq) == Array(1...5))
            #expect(receipt.accepted.map(\.transferId) == incoming.map(\.transferId))
            #expect(receipt.accepted.map(\.payload) == incoming.map(\.payload))
            let ids = receipt.accepted.map(\.deliveryId)
            #expect(ids == ids.sorted() && Set(ids).count == 5)
            #expect(try await store.inbox(after: 0, limit: 2) == Array(receipt.accepted[0..<2]))
            #expect(try await store.inbox(after: ids[1], limit: 10) == Array(receipt.accepted[2...]))
            #expect(try await store.inboxCount() == 5)
            #expect(try await store.resumeState() == ResumeState(peerStoreId: peer, lastUserInfoSeq: 5, contextVersion: 0))
            #expect(store.statistics.received == 5)
        }
    }

    @Test("a resend of held seqs is skipped; lastSeq unchanged")
    func dedupe() async throws {
        try await Support.withStore { store, _ throws in
            let peer = UUID()
            let incoming = Support.incoming(1...3)
            _ = try await store.receive(from: peer, incoming)
            let commits = store.statistics.commits
            let resend = try await store.receive(from: peer, incoming)
            #expect(resend.accepted.isEmpty)
            #expect(resend.lastSeq == 3)
            #expect(store.statistics.commits == commits, "a pure duplicate writes nothing")
            let overlap = try await store.receive(from: peer, Support.incoming(2...4))
            #expect(overlap.accepted.map(\.seq) == [4])
            #expect(overlap.lastSeq == 4)
            let gap = try await store.receive(from: peer, Support.incoming([7]))
            #expect(gap.accepted.map(\.seq) == [7], "seqs of cancelled transfers leave gaps")
            #expect(try await store.inboxCount() == 5)
        }
    }

    @Test("a new peer store restarts dedupe (seq and context version); old rows stay")
    func peerStoreChange() async throws {
        try await Support.withStore { store, _ throws in
            let oldPeer = UUID()
            let newPeer = UUID()
            _ = try await store.receive(from: oldPeer, Support.incoming(1...3))
            _ = try await store.contexts.receiveContext(from: oldPeer, version: 4, payload: ["a": .integer(1)])
            let receipt = try await store.receive(from: newPeer, Support.incoming(1...2))
            #expect(receipt.accepted.map(\.seq) == [1, 2])
            #expect(receipt.lastSeq == 2)
            #expect(try await store.inbox(after: 0, limit: 10).map(\.seq) == [1, 2, 3, 1, 2])
            #expect(try await store.resumeState() == ResumeState(peerStoreId: newPeer, lastUserInfoSeq: 2, contextVersion: 0))
        }
    }

    @Test("switching back to a peer store restores what is held from it: no duplicates")
    func peerStoreSwitchBack() async throws {
        try await Support.withStore { store, _ throws in
            let real = UUID()
            let stray = UUID()
            _ = try await store.receive(from: real, Support.incoming(1...3))
            _ = try await store.contexts.receiveContext(from: real, version: 2, payload: ["a": .integer(1)])
            // Another sender (a stray process with allowed credentials) links in between.
            try await store.notePeerStore(stray)
            _ = try await store.receive(from: stray, Support.incoming(1...1))
            // The real sender comes back and resends what it had not seen acknowledged.
            try await store.notePeerStore(real)
            #expect(try await store.resumeState() == ResumeState(peerStoreId: real, lastUserInfoSeq: 3, contextVersion: 2))
            let resend = try await store.receive(from: real, Support.incoming(1...4))
            #expect(resend.accepted.map(\.seq) == [4])
            #expect(try await store.contexts.receiveContext(from: real, version: 2, payload: ["a": .integer(1)]) == nil)
            #expect(try await store.inboxCount() == 5)
        }
    }

    @Test("notePeerStore resets only for a different peer store")
    func notePeerStore() async throws {
        try await Support.withStore { store, _ throws in
            let peer = UUID()
            try await store.notePeerStore(peer)
            #expect(try await store.resumeState() == ResumeState(peerStoreId: peer, lastUserInfoSeq: 0, contextVersion: 0))
            _ = try await store.receive(from: peer, Support.incoming(1...2))
            _ = try await store.contexts.receiveContext(from: peer, version: 3, payload: [:])
            try await store.notePeerStore(peer)
            #expect(try await store.resumeState() == ResumeState(peerStoreId: peer, lastUserInfoSeq: 2, contextVersion: 3))
            let other = UUID()
            try await store.notePeerStore(other)
            #expect(try await store.resumeState() == ResumeState(peerStoreId: other, lastUserInfoSeq: 0, contextVersion: 0))
            #expect(try await store.receive(from: other, Support.incoming([1])).accepted.count == 1)
        }
    }

    @Test("inboxLimit stores the prefix that fits; the rest stay unacknowledged")
    func inboxLimit() async throws {
        try await Support.withStore(inboxLimit: 3) { store, _ throws in
            let peer = UUID()
            let first = try await store.receive(from: peer, Support.incoming(1...5))
            #expect(first.accepted.map(\.seq) == [1, 2, 3])
            #expect(first.rejectedForSpace == 2)
            #expect(first.lastSeq == 3)
            try await store.consumeInbox(upTo: first.accepted[0].deliveryId)
            let resend = try await store.receive(from: peer, Support.incoming(2...5))
            #expect(resend.accepted.map(\.seq) == [4])
            #expect(resend.rejectedForSpace == 1)
            #expect(resend.lastSeq == 4)
            #expect(try await store.inboxCount() == 3)
        }
    }

    @Test("consumeInbox deletes up to a delivery id, idempotently; ids are never reused")
    func consume() async throws {
        try await Support.withStore { store, _ throws in
            let peer = UUID()
            let receipt = try await store.receive(from: peer, Support.incoming(1...4))
            let ids = receipt.accepted.map(\.deliveryId)
            try await store.consumeInbox(upTo: ids[1])
            try await store.consumeInbox(upTo: ids[1])
            try await store.consumeInbox(upTo: ids[0])
            #expect(try await store.inbox(after: 0, limit: 10) == Array(receipt.accepted[2...]))
            try await store.consumeInbox(upTo: .max)
            #expect(try await store.inboxCount() == 0)
            let later = try await store.receive(from: peer, Support.incoming([5]))
            #expect(try #require(later.accepted.first).deliveryId > ids[3])
        }
    }

    @Test("inbox rows and dedupe state survive reopen")
    func survivesReopen() async throws {
        try await Support.withStore { store, configuration throws in
            let peer = UUID()
            let receipt = try await store.receive(from: peer, Support.incoming(1...3))
            try await store.close()
            try await Support.reopen(configuration) { reopened throws in
                #expect(try await reopened.inbox(after: 0, limit: 10) == receipt.accepted)
                #expect(try await reopened.receive(from: peer, Support.incoming(1...3)).accepted.isEmpty)
                #expect(try await reopened.resumeState().lastUserInfoSeq == 3)
            }
        }
    }
}
