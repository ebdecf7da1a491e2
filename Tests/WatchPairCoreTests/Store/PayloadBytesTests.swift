import Foundation
import GRDB
import Testing
@testable import WatchPairCore
import WatchPairWire

/// The store keeps a payload as the bytes it was encoded to where it entered, and the sender's page read
/// hands those bytes back without decoding them.
@Suite("Store: payload bytes kept as encoded")
struct PayloadBytesTests {
    typealias Support = StoreTestSupport

    /// The payload column of every row of `table`, in rowid order, read with plain SQL after the store closed.
    static func payloadColumn(_ configuration: StoreConfiguration, table: String) throws -> [[UInt8]] {
        let queue = try DatabaseQueue(path: configuration.databasePath)
        defer { try? queue.close() }
        return try queue.read { database in
            try Data.fetchAll(database, sql: "SELECT payload FROM \(table) ORDER BY rowid").map { [UInt8]($0) }
        }
    }

    @Test func outboxKeepsTheEncodedBytesAndSendsThemAsTheyAre() async throws {
        let encoded = try EncodedDictionary(Support.richPayload)
        try await Support.withTemporaryDirectory { directory in
            let configuration = StoreConfiguration(directory: directory, durability: .process)
            try await Support.reopen(configuration) { store throws in
                let transfer = try await store.enqueue(transferId: UUID(), payload: encoded)
                #expect(transfer.encodedPayload.bytes == encoded.bytes)
                #expect(transfer.payload == Support.richPayload)
                let page = try await store.outstandingToSend(after: 0, limit: 10)
                #expect(page.map(\.encodedPayload.bytes) == [encoded.bytes])
                #expect(try await store.outstanding(after: 0, limit: 10).map(\.payload) == [Support.richPayload])
            }
            #expect(try Self.payloadColumn(configuration, table: "outbox") == [encoded.bytes])
        }
    }

    /// The inbox row holds exactly the bytes the frame carried: no re-encoding between the wire and the disk.
    @Test func inboxKeepsTheFramesBytes() async throws {
        let wire = FrameEncoder.encode(.userInfo(seq: 1, after: 0, transferId: UUID(), payload: try EncodedDictionary(Support.richPayload)))
        var decoder = FrameDecoder()
        decoder.append(wire)
        guard case .userInfo(let seq, _, let transferId, let payload) = try decoder.next() else {
            Issue.record("not a userInfo frame")
            return
        }
        let frameBytes = Array(wire[(4 + 1 + 8 + 8 + 16)..<(wire.count - 4)])
        try await Support.withTemporaryDirectory { directory in
            let configuration = StoreConfiguration(directory: directory, durability: .process)
            try await Support.reopen(configuration) { store throws in
                let receipt = try await store.receive(from: UUID(), encoded: [(seq, transferId, payload)])
                #expect(receipt.accepted.map(\.encodedPayload.bytes) == [frameBytes])
                #expect(try await store.inbox(after: 0, limit: 10).map(\.payload) == [Support.richPayload])
            }
            #expect(try Self.payloadColumn(configuration, table: "inbox") == [frameBytes])
        }
    }

    /// The on-disk format is unchanged: a row written the old way (`StoreColumns.encode`) reads back, and
    /// the new path writes the same bytes for the same dictionary.
    @Test func sameBytesAsTheOldColumnEncoding() throws {
        #expect(try EncodedDictionary(Support.richPayload).bytes == [UInt8](StoreColumns.encode(Support.richPayload)))
    }

    /// Structural evidence that the sender's page read does not decode: a row whose payload no longer
    /// decodes is still handed over as its bytes (the peer's frame decoder rejects it), while the reads
    /// that give values to the app report the damage.
    @Test func sendPathDoesNotDecode() async throws {
        try await Support.withTemporaryDirectory { directory in
            let configuration = StoreConfiguration(directory: directory, durability: .process)
            try await Support.reopen(configuration) { store throws in
                _ = try await store.enqueue(transferId: UUID(), payload: Support.payload(1))
            }
            let damaged: [UInt8] = [0x08, 0, 0, 0, 9]
            let queue = try DatabaseQueue(path: configuration.databasePath)
            try await queue.write { try $0.execute(sql: "UPDATE outbox SET payload = ?", arguments: [Data(damaged)]) }
            try queue.close()
            try await Support.reopen(configuration) { store throws in
                #expect(try await store.outstandingToSend(after: 0, limit: 10).map(\.encodedPayload.bytes) == [damaged])
                let error = await Support.expectStoreError { _ = try await store.outstanding(after: 0, limit: 10) }
                #expect(error?.kind == .corrupt)
            }
        }
    }
}
