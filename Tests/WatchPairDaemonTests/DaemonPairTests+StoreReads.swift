import Testing
import WatchPairControlClient
import WatchPairWire

@testable import WatchPairDaemon

extension DaemonPairTests {
    /// Each follower reads only the kinds that changed (``AppChanges``), and what a commit just wrote comes
    /// from the store's tails (``StoreTail``): one at a time, a transfer costs neither daemon a read
    /// transaction (the watch's `receive` stream and its layer take the inbox row, the phone's pump and
    /// didFinish stream the outbox row, from memory). Reading every kind from the table on every change
    /// cost several reads per transfer on each side (the watch's 20 transfers took 40 with the kinds alone,
    /// before the tails). Two reads of slack for a page the table answers.
    @Test func aTransferCostsNoStoreRead() async throws {
        let count = 20
        try await withDaemonPair { pair in
            try await AsyncControlClientConnection.withConnection(to: pair.watchControl) { watchApp in
                try await AsyncControlClientConnection.withConnection(to: pair.phoneControl) { phoneApp in
                    // Every channel on the watch, didFinish on the phone: what the apps of wcbench follow.
                    #expect(try await watchApp.call(["id": 1, "op": "receive", "follow": true])["ok"] == .bool(true))
                    #expect(try await phoneApp.call(["id": 1, "op": "receive", "follow": true, "channels": ["didFinish"]])["ok"] == .bool(true))
                    // One round first, so the link is up and the first looks (which read everything) are done.
                    _ = try await phoneApp.call(["id": 2, "op": "transfer", "userInfo": ["n": -1]])
                    _ = try await watchApp.event("userInfo")
                    _ = try await phoneApp.event("didFinish")
                    let before = try await (phone: storeReads(phoneApp), watch: storeReads(watchApp))
                    for n in 0..<count {
                        _ = try await phoneApp.call(["id": .integer(Int64(10 + n)), "op": "transfer", "userInfo": ["n": .integer(Int64(n))]])
                        let received = try await watchApp.event("userInfo")
                        #expect(received["data"]?["userInfo"]?["n"] == .integer(Int64(n)))
                        _ = try await phoneApp.event("didFinish")
                    }
                    let phoneReads = try await storeReads(phoneApp) - before.phone
                    let watchReads = try await storeReads(watchApp) - before.watch
                    #expect(watchReads <= 2, "watch: \(watchReads) store reads for \(count) transfers")
                    #expect(phoneReads <= 2, "phone: \(phoneReads) store reads for \(count) transfers")
                }
            }
        }
    }

    /// `status.storeReads` of the daemon behind `app`.
    private func storeReads(_ app: AsyncControlClientConnection) async throws -> Int {
        let status = try await app.call(["id": 99, "op": "status"])
        return Int(try #require(status["result"]?["storeReads"]?.integerValue))
    }
}
