import Foundation
import Testing
import WatchConnection

@Suite("Exactly-once ledger")
struct ResponseLedgerTests {
    let a = UUID()
    let b = UUID()

    @Test("first arrival runs; a repeat while running waits; after it ran, repeats replay the response")
    func steps() {
        var ledger = ResponseLedger()
        #expect(ledger.event(.arrived(id: a, now: .zero)) == .run)
        #expect(ledger.event(.arrived(id: a, now: .seconds(1))) == .awaitRun)
        #expect(ledger.event(.finished(id: a, response: "R", now: .seconds(2))) == .none)
        #expect(ledger.event(.arrived(id: a, now: .seconds(3))) == .replay("R"))
        #expect(ledger.event(.arrived(id: b, now: .seconds(3))) == .run)
    }

    @Test("a record answers repeats within the window (1 h) only")
    func window() {
        var ledger = ResponseLedger(capacity: 10, window: .seconds(3600))
        _ = ledger.event(.arrived(id: a, now: .zero))
        _ = ledger.event(.finished(id: a, response: "R", now: .zero))
        #expect(ledger.event(.arrived(id: a, now: .seconds(3599))) == .replay("R"))
        #expect(ledger.event(.arrived(id: a, now: .seconds(3600))) == .run)
    }

    @Test("bounded: past capacity the oldest record is forgotten, running entries never are")
    func bound() {
        var ledger = ResponseLedger(capacity: 2)
        let ids = (0..<3).map { _ in UUID() }
        _ = ledger.event(.arrived(id: a, now: .zero))  // stays running
        for id in ids {
            _ = ledger.event(.arrived(id: id, now: .zero))
            _ = ledger.event(.finished(id: id, response: "\(id)", now: .zero))
        }
        #expect(ledger.recordCount == 2)
        #expect(ledger.event(.arrived(id: ids[0], now: .zero)) == .run)
        #expect(ledger.event(.arrived(id: ids[2], now: .zero)) == .replay("\(ids[2])"))
        #expect(ledger.event(.arrived(id: a, now: .zero)) == .awaitRun)
    }
}
