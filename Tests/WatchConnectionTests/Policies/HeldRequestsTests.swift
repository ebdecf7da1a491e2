import Foundation
import Testing
import WatchConnection

/// A request numbered `number` of `type`, arrived at `time`.
func arriving(_ number: Int, _ type: String = "T", at time: Duration = .zero) -> HeldRequests.Request {
    HeldRequests.Request(
        id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", number))!, requestType: type,
        envelope: "{\"n\":\(number)}", answersByUserInfo: true, arrivedAt: time)
}

@Suite("Held request rules (a request before its handler)")
struct HeldRequestsTests {
    /// Arrival: durable or live, handled or not, new or a repeat of a held one.
    @Test("what happens to an arriving request", arguments: [
        // (durable, handled, already held, disposition, held afterwards, running afterwards, changed)
        (true, false, false, HeldRequests.Disposition.held, 1, 0, true),
        (false, false, false, .refuse, 0, 0, false),
        (true, true, false, .run, 0, 1, true),
        (false, true, false, .run, 0, 0, false),
        (true, false, true, .repeatOfHeld, 1, 0, false),
        (false, false, true, .repeatOfHeld, 1, 0, false),
        (true, true, true, .repeatOfHeld, 1, 0, false),
    ])
    func arrival(
        durable: Bool, handled: Bool, alreadyHeld: Bool, disposition: HeldRequests.Disposition, heldAfter: Int, runningAfter: Int,
        changed: Bool
    ) {
        var held = HeldRequests(requests: alreadyHeld ? [arriving(1)] : [])
        let action = held.event(.arrived(arriving(1), durable: durable, handled: handled))
        #expect(action.disposition == disposition)
        #expect(held.requests.count == heldAfter)
        #expect(held.running.count == runningAfter)
        #expect(action.changed == changed)
    }

    @Test("a durable request stays persisted while it runs, until finished; a repeat of a running one waits")
    func runningUntilFinished() {
        var held = HeldRequests()
        _ = held.event(.arrived(arriving(1), durable: true, handled: true))
        #expect(held.persisted == [arriving(1)])
        #expect(held.event(.arrived(arriving(1), durable: true, handled: true)).disposition == .repeatOfHeld)
        #expect(held.event(.finished(id: arriving(1).id)).changed)
        #expect(held.persisted.isEmpty)
        #expect(!held.event(.finished(id: arriving(1).id)).changed)
        // Released by a registration: running from then on, persisted until finished.
        _ = held.event(.arrived(arriving(2), durable: true, handled: false))
        let release = held.event(.registered(type: "T", now: .zero))
        #expect(release.release == [arriving(2)] && held.requests.isEmpty && held.persisted == [arriving(2)])
        _ = held.event(.finished(id: arriving(2).id))
        #expect(held.persisted.isEmpty)
    }

    @Test("a registration releases the held requests of its type only, oldest first")
    func release() {
        var held = HeldRequests()
        _ = held.event(.arrived(arriving(1, "A"), durable: true, handled: false))
        _ = held.event(.arrived(arriving(2, "B"), durable: true, handled: false))
        _ = held.event(.arrived(arriving(3, "A"), durable: true, handled: false))
        let action = held.event(.registered(type: "A", now: .zero))
        #expect(action.release == [arriving(1, "A"), arriving(3, "A")])
        #expect(action.changed)
        #expect(held.requests == [arriving(2, "B")])
        let none = held.event(.registered(type: "A", now: .zero))
        #expect(none.release.isEmpty && !none.changed)
    }

    @Test("at most 100: the 101st drops the oldest, which is returned (answered, never silent)")
    func dropOldest() {
        var held = HeldRequests()
        for number in 1...100 {
            #expect(held.event(.arrived(arriving(number), durable: true, handled: false)).dropped.isEmpty)
        }
        let action = held.event(.arrived(arriving(101), durable: true, handled: false))
        #expect(action.dropped == [arriving(1)])
        #expect(held.requests.count == 100 && held.requests.last == arriving(101))
    }

    @Test("held for 1 h: expired at the hour by the next event, not a moment before; never released")
    func expiry() {
        var held = HeldRequests()
        _ = held.event(.arrived(arriving(1, at: .seconds(0)), durable: true, handled: false))
        _ = held.event(.arrived(arriving(2, at: .seconds(100)), durable: true, handled: false))
        let early = held.event(.expire(now: .seconds(3599)))
        #expect(early.expired.isEmpty && !early.changed)
        let due = held.event(.registered(type: "T", now: .seconds(3600)))
        #expect(due.expired == [arriving(1, at: .zero)])
        #expect(due.release == [arriving(2, at: .seconds(100))])
        #expect(held.requests.isEmpty)
        // A live arrival expires old ones too.
        _ = held.event(.arrived(arriving(3, at: .seconds(0)), durable: true, handled: false))
        let live = held.event(.arrived(arriving(4, at: .seconds(3600)), durable: false, handled: false))
        #expect(live.disposition == .refuse && live.expired == [arriving(3, at: .zero)] && live.changed)
    }

    @Test("restored from disk: the newest `capacity` are kept, in order")
    func restored() {
        let held = HeldRequests(capacity: 2, requests: [arriving(1), arriving(2), arriving(3)])
        #expect(held.requests == [arriving(2), arriving(3)])
    }
}
