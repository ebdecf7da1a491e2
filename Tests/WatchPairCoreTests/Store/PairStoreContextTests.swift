import Foundation
import Testing
@testable import WatchPairCore
import WatchPairWire

@Suite("Store: application context")
struct PairStoreContextTests {
    typealias Support = StoreTestSupport

    @Test("sent context: never-set vs empty, identical updates, versions")
    func sentContext() async throws {
        try await Support.withStore { store, _ throws in
            #expect(try await store.contexts.sentContext() == nil)
            #expect(try await store.contexts.setSentContext([:]) == StoredContext(version: 1, payload: [:]), "empty is a real value")
            #expect(try await store.contexts.sentContext() == StoredContext(version: 1, payload: [:]))
            #expect(try await store.contexts.setSentContext([:]) == nil, "already empty-and-set")
            let value: PlistDictionary = ["a": .integer(1), "b": .array([.string("x")])]
            #expect(try await store.contexts.setSentContext(value) == StoredContext(version: 2, payload: value))
            let commits = store.statistics.commits
            #expect(try await store.contexts.setSentContext(value) == nil)
            #expect(store.statistics.commits == commits, "an identical update writes nothing")
            #expect(try await store.contexts.setSentContext(Support.richPayload)?.version == 3)
            #expect(try await store.contexts.setSentContext([:]) == StoredContext(version: 4, payload: [:]), "empty clears")
        }
    }

    @Test("sent context keeps the bytes it was given; equal dictionaries with other bytes are still identical")
    func sentContextBytes() async throws {
        try await Support.withStore { store, _ throws in
            let encoded = try EncodedDictionary(["t": .double(0.0), "s": .string("caf\u{E9}")])
            #expect(try await store.contexts.setSentContext(encoded)?.version == 1)
            let sending = try #require(try await store.contexts.sentContextForSending())
            #expect(sending.version == 1)
            #expect(sending.payload.bytes == encoded.bytes, "sent as stored, not encoded again")
            // -0.0 == 0.0 and NFD == NFC as dictionaries, though their bytes differ: not a new update.
            let sameValue = try EncodedDictionary(["t": .double(-0.0), "s": .string("cafe\u{301}")])
            #expect(sameValue.bytes != encoded.bytes)
            #expect(try await store.contexts.setSentContext(sameValue) == nil)
            #expect(try await store.contexts.setSentContext(["t": .double(1.0)])?.version == 2)
        }
    }

    @Test("peer context ack is monotonic")
    func peerAck() async throws {
        try await Support.withStore { store, _ throws in
            #expect(try await store.contexts.peerContextAck() == 0)
            try await store.contexts.setPeerContextAck(3)
            try await store.contexts.setPeerContextAck(2)
            #expect(try await store.contexts.peerContextAck() == 3)
            try await store.contexts.setPeerContextAck(4)
            #expect(try await store.contexts.peerContextAck() == 4)
        }
    }

    @Test("receiveContext stores only newer versions, or any after a peer store change")
    func receiveOnlyNewer() async throws {
        try await Support.withStore { store, _ throws in
            let peer = UUID()
            #expect(try await store.contexts.receivedContext() == nil)
            let two: PlistDictionary = ["v": .integer(2)]
            #expect(try await store.contexts.receiveContext(from: peer, version: 2, payload: two) == StoredContext(version: 2, payload: two))
            #expect(try await store.contexts.receiveContext(from: peer, version: 1, payload: [:]) == nil)
            #expect(try await store.contexts.receiveContext(from: peer, version: 2, payload: [:]) == nil)
            #expect(try await store.contexts.receivedContext() == StoredContext(version: 2, payload: two))
            #expect(try await store.contexts.receiveContext(from: peer, version: 3, payload: [:]) == StoredContext(version: 3, payload: [:]))
            #expect(try await store.resumeState().contextVersion == 3)
            let newPeer = UUID()
            #expect(try await store.contexts.receiveContext(from: newPeer, version: 1, payload: two) == StoredContext(version: 1, payload: two))
            #expect(try await store.resumeState() == ResumeState(peerStoreId: newPeer, lastUserInfoSeq: 0, contextVersion: 1))
        }
    }

    @Test("contexts and acks survive reopen")
    func survivesReopen() async throws {
        try await Support.withStore { store, configuration throws in
            let peer = UUID()
            _ = try await store.contexts.setSentContext(Support.richPayload)
            try await store.contexts.setPeerContextAck(1)
            _ = try await store.contexts.receiveContext(from: peer, version: 5, payload: ["r": .bool(true)])
            try await store.close()
            try await Support.reopen(configuration) { reopened throws in
                #expect(try await reopened.contexts.sentContext() == StoredContext(version: 1, payload: Support.richPayload))
                #expect(try await reopened.contexts.setSentContext(Support.richPayload) == nil)
                #expect(try await reopened.contexts.peerContextAck() == 1)
                #expect(try await reopened.contexts.receivedContext() == StoredContext(version: 5, payload: ["r": .bool(true)]))
                #expect(try await reopened.contexts.receiveContext(from: peer, version: 5, payload: [:]) == nil)
            }
        }
    }

    @Test("each received context is delivered once, across reopen and peer store changes")
    func deliveredTracking() async throws {
        try await Support.withStore { store, configuration throws in
            let peer = UUID()
            #expect(try await store.contexts.contextDeliveredVersion() == 0)
            #expect(try await store.contexts.undeliveredReceivedContext() == nil)
            let first = try #require(try await store.contexts.receiveContext(from: peer, version: 1, payload: ["n": .integer(1)]))
            #expect(try await store.contexts.contextDeliveredVersion() < first.version)
            #expect(try await store.contexts.undeliveredReceivedContext() == first)
            try await store.contexts.markContextDelivered(version: first.version)
            #expect(try await store.contexts.contextDeliveredVersion() == 1)
            #expect(try await store.contexts.undeliveredReceivedContext() == nil)
            try await store.close()

            try await Support.reopen(configuration) { store throws in
                #expect(try await store.contexts.undeliveredReceivedContext() == nil, "delivered state survives reopen")
                let second = try #require(try await store.contexts.receiveContext(from: peer, version: 4, payload: [:]))
                #expect(try await store.contexts.contextDeliveredVersion() < second.version)
                try await store.contexts.markContextDelivered(version: 1)
                #expect(try await store.contexts.undeliveredReceivedContext() == second, "a mark for a replaced context is ignored")
                try await store.contexts.markContextDelivered(version: 4)
                #expect(try await store.contexts.contextDeliveredVersion() == 4)

                // A recreated peer store starts again at version 1: still delivered.
                let newPeer = UUID()
                try await store.notePeerStore(newPeer)
                #expect(try await store.contexts.undeliveredReceivedContext() == nil, "a peer change alone delivers nothing")
                let fresh = try #require(try await store.contexts.receiveContext(from: newPeer, version: 1, payload: ["new": .bool(true)]))
                #expect(try await store.contexts.contextDeliveredVersion() < fresh.version)
                #expect(try await store.contexts.undeliveredReceivedContext() == fresh)
                try await store.contexts.markContextDelivered(version: 1)
                #expect(try await store.contexts.undeliveredReceivedContext() == nil)
            }
            try await Support.reopen(configuration) { store throws in
                #expect(try await store.contexts.undeliveredReceivedContext() == nil)
                #expect(try await store.contexts.receivedContext() == StoredContext(version: 1, payload: ["new": .bool(true)]))
            }
        }
    }
}
