import Foundation
@testable import WatchPairCore
import Testing

/// docs/Complications.md: 50 complication transfers a day, the 51st still delivered as a plain userInfo, the next
/// (UTC) day resets; the count is the machine's state, which the store keeps across restarts.
@Suite("complication budget")
struct ComplicationBudgetTests {
    /// 2026-05-01, a UTC day.
    let may1 = ComplicationBudget.day(of: Date(timeIntervalSince1970: 1_777_593_600))

    @Test("50 pass as complication transfers, the 51st goes as plain userInfo, the next day resets")
    func dailyBudget() {
        var budget = ComplicationBudget(dailyLimit: 50)
        #expect(budget.event(.read(day: may1)) == .remaining(50))
        for sent in 1...50 {
            #expect(budget.event(.transfer(day: may1)) == .complication(remaining: 50 - sent))
        }
        #expect(budget.event(.transfer(day: may1)) == .plain)
        #expect(budget.event(.transfer(day: may1)) == .plain)
        #expect(budget.event(.read(day: may1)) == .remaining(0))
        #expect(budget.event(.read(day: may1 + 1)) == .remaining(50))
        #expect(budget.event(.transfer(day: may1 + 1)) == .complication(remaining: 49))
        #expect(budget.state == ComplicationBudget.State(day: may1 + 1, used: 1))
    }

    @Test("one event per line: day changes, clock set back, refunds", arguments: [
        // (state before, event, action, state after)
        (ComplicationBudget.State(day: 0, used: 0), ComplicationBudget.Event.transfer(day: 20_574), ComplicationBudget.Action.complication(remaining: 2), ComplicationBudget.State(day: 20_574, used: 1)),
        (.init(day: 20_574, used: 3), .transfer(day: 20_574), .plain, .init(day: 20_574, used: 3)),
        (.init(day: 20_574, used: 3), .transfer(day: 20_575), .complication(remaining: 2), .init(day: 20_575, used: 1)),
        // The wall clock set back a day: the later day's count stands, no second budget.
        (.init(day: 20_575, used: 3), .transfer(day: 20_574), .plain, .init(day: 20_575, used: 3)),
        (.init(day: 20_575, used: 3), .read(day: 20_574), .remaining(0), .init(day: 20_575, used: 3)),
        // A transfer the store refused is given back, on its day only.
        (.init(day: 20_574, used: 3), .refund(day: 20_574), .remaining(1), .init(day: 20_574, used: 2)),
        (.init(day: 20_575, used: 1), .refund(day: 20_574), .remaining(2), .init(day: 20_575, used: 1)),
        (.init(day: 20_574, used: 0), .refund(day: 20_574), .remaining(3), .init(day: 20_574, used: 0)),
    ])
    func table(before: ComplicationBudget.State, event: ComplicationBudget.Event, action: ComplicationBudget.Action, after: ComplicationBudget.State) {
        var budget = ComplicationBudget(dailyLimit: 3, state: before)
        #expect(budget.event(event) == action)
        #expect(budget.state == after)
    }

    @Test("days are UTC: the boundary is midnight UTC whatever the local zone")
    func utcDays() {
        let midnight = Date(timeIntervalSince1970: 1_777_593_600)
        #expect(ComplicationBudget.day(of: midnight.addingTimeInterval(-0.001)) == may1 - 1)
        #expect(ComplicationBudget.day(of: midnight) == may1)
        #expect(ComplicationBudget.day(of: midnight.addingTimeInterval(86_399.999)) == may1)
        #expect(ComplicationBudget.day(of: Date(timeIntervalSince1970: -1)) == -1)
    }

    @Test("a budget of 0 sends everything as plain userInfo")
    func zeroBudget() {
        var budget = ComplicationBudget(dailyLimit: 0)
        #expect(budget.event(.transfer(day: may1)) == .plain)
        #expect(budget.event(.read(day: may1)) == .remaining(0))
    }
}
