import Foundation
import Testing
import WatchConnection

@Suite("Deadlines of a connection's requests: one sleeper for all")
struct DeadlineScheduleTests {
    let a = UUID()
    let b = UUID()
    let c = UUID()

    @Test("the first deadline starts the sleeper; a later one does not, an earlier one moves it")
    func arming() {
        var schedule = DeadlineSchedule()
        #expect(schedule.arm(a, at: .seconds(10)) == .sleep(until: .seconds(10)))
        #expect(schedule.arm(b, at: .seconds(12)) == .none)
        #expect(schedule.arm(c, at: .seconds(10)) == .none, "the sleeper wakes at that instant already")
        #expect(schedule.arm(c, at: .seconds(5)) == .sleep(until: .seconds(5)))
        #expect(schedule.sleepingUntil == .seconds(5))
        #expect(schedule.count == 3)
    }

    @Test("waking: what is due, earliest first (ties in arming order), then the next sleep")
    func waking() {
        var schedule = DeadlineSchedule()
        _ = schedule.arm(b, at: .seconds(10))
        _ = schedule.arm(a, at: .seconds(10))
        _ = schedule.arm(c, at: .seconds(30))
        let woke = schedule.woke(at: .seconds(10))
        #expect(woke.due == [b, a])
        #expect(woke.next == .sleep(until: .seconds(30)))
        #expect(schedule.count == 1)
        let last = schedule.woke(at: .seconds(30))
        #expect(last.due == [c])
        #expect(last.next == .none)
        #expect(schedule.sleepingUntil == nil)
    }

    @Test("a disarmed deadline leaves the sleeper as it is; it wakes to nothing and ends")
    func disarming() {
        var schedule = DeadlineSchedule()
        _ = schedule.arm(a, at: .seconds(10))
        schedule.disarm(a)
        #expect(schedule.sleepingUntil == .seconds(10))
        #expect(schedule.arm(b, at: .seconds(20)) == .none, "the next request's deadline costs no new sleeper")
        let woke = schedule.woke(at: .seconds(10))
        #expect(woke.due.isEmpty)
        #expect(woke.next == .sleep(until: .seconds(20)))
        schedule.disarm(b)
        #expect(schedule.woke(at: .seconds(20)) == ([], .none))
    }

    @Test("a moved deadline counts where it is now, not where it was")
    func moving() {
        var schedule = DeadlineSchedule()
        _ = schedule.arm(a, at: .seconds(10))
        #expect(schedule.arm(a, at: .seconds(3600)) == .none)
        let woke = schedule.woke(at: .seconds(10))
        #expect(woke.due.isEmpty)
        #expect(woke.next == .sleep(until: .seconds(3600)))
    }
}
