import Testing

@testable import Systemd

extension ProcessStateTests {
    @Suite struct JournalTests {
        @Test(.enabled(if: !journalSocketExists(), "needs a machine without journald"))
        func sendWithoutJournalReturnsFalse() {
            #expect(!Journal.isAvailable)
            #expect(!Journal.send([("MESSAGE", "hello"), ("WC_EVENT", "sessionActivated")]))
        }

        @Test func emptyEntryIsRefused() {
            #expect(!Journal.submit([]))
        }
    }
}
