import Testing

@testable import WatchPairHost

/// A control connection's requests in flight: tasks and started requests count alike against the bound,
/// a started request is answered once, and a connection that stops abandons the open ones.
@Suite("control requests in flight")
struct RequestsInFlightTests {
    @Test("the bound holds for tasks and started requests alike; an answer or an end makes room")
    func bound() {
        let inFlight = RequestsInFlight()
        #expect(inFlight.tryBegin(limit: 2))
        let started = inFlight.open(7)
        #expect(inFlight.tryBegin(limit: 2))
        #expect(!inFlight.tryBegin(limit: 2))
        #expect(inFlight.count == 2)
        #expect(inFlight.close(started))
        #expect(inFlight.count == 1)
        #expect(inFlight.tryBegin(limit: 2))
        inFlight.end()
        inFlight.end()
        #expect(inFlight.count == 0)
    }

    @Test("a started request is answered once; one the connection abandoned is not answered again")
    func answeredOnce() {
        let inFlight = RequestsInFlight()
        #expect(inFlight.tryBegin(limit: 64))
        let first = inFlight.open(1)
        #expect(inFlight.tryBegin(limit: 64))
        let second = inFlight.open(2)
        #expect(inFlight.tryBegin(limit: 64))
        let third = inFlight.open(3)
        #expect(inFlight.close(second))
        #expect(!inFlight.close(second))
        #expect(inFlight.abandonStarted() == [1, 3])
        #expect(inFlight.count == 0)
        #expect(!inFlight.close(first))
        #expect(!inFlight.close(third))
        #expect(inFlight.abandonStarted() == [])
    }

    @Test("drain returns once the last request in flight ends")
    func drain() async {
        let inFlight = RequestsInFlight()
        #expect(inFlight.tryBegin(limit: 1))
        let started = inFlight.open(9)
        async let drained: Void = inFlight.drain()
        #expect(inFlight.close(started))
        await drained
        #expect(inFlight.count == 0)
    }
}
