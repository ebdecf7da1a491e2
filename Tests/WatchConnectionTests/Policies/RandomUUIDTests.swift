import Foundation
import Testing
@testable import WatchConnection

/// Request ids drawn without Foundation's `UUID()` on Linux (``UUID/random()``): still version 4 with
/// RFC 9562's variant, and distinct.
@Suite("Random request ids")
struct RandomUUIDTests {
    @Test("ids are version 4, RFC 9562's variant, read back from their text, and distinct")
    func ids() {
        var seen = Set<UUID>()
        for _ in 0..<1_000 {
            let id = UUID.random()
            let text = Array(id.uuidString)
            #expect(text[14] == "4", "\(id)")
            #expect("89AB".contains(text[19]), "\(id)")
            #expect(UUID(uuidString: id.uuidString) == id)
            seen.insert(id)
        }
        #expect(seen.count == 1_000)
    }
}
