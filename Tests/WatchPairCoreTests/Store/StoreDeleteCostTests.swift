import Foundation
import Testing
@testable import WatchPairCore
import WatchPairWire

/// Deleting a row must not write its payload again: `secure_delete` is off on the writer, whatever the
/// SQLite build's default (Debian's is on, which doubled the bytes written per transfer).
@Suite("Store: deletes do not rewrite payloads")
struct StoreDeleteCostTests {
    typealias Support = StoreTestSupport

    @Test("the writer has secure_delete off, also after reopening")
    func secureDeleteIsOff() async throws {
        try await Support.withStore(durability: .power) { store, configuration throws in
            #expect(try await store.database.writerPragma("secure_delete") == "0")
            try await store.close()
            try await Support.reopen(configuration) { reopened throws in
                #expect(try await reopened.database.writerPragma("secure_delete") == "0")
            }
        }
    }
}
