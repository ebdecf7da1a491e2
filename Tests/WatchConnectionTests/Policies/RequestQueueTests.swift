import Foundation
import Testing
import WatchConnection

func queued(_ number: Int, at time: Duration = .zero) -> QueuedRequest {
    QueuedRequest(
        id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", number))!, requestType: "R\(number)",
        strategy: .messageOnly, envelope: "{\"n\":\(number)}", enqueuedAt: time)
}

@Suite("Request queue rules")
struct RequestQueueTests {
    @Test("at most 100: the 101st drops the oldest, which is returned (never silent)")
    func dropOldest() {
        var queue = RequestQueue()
        for number in 1...100 {
            let action = queue.event(.enqueue(queued(number)))
            #expect(action.dropped.isEmpty && action.changed)
        }
        let action = queue.event(.enqueue(queued(101)))
        #expect(action.dropped == [queued(1)])
        #expect(queue.requests.count == 100)
        #expect(queue.requests.first == queued(2) && queue.requests.last == queued(101))
    }

    @Test("expiry after 1 h: exactly at the hour it expires, a moment before it does not")
    func expiry() {
        var queue = RequestQueue()
        _ = queue.event(.enqueue(queued(1, at: .seconds(0))))
        _ = queue.event(.enqueue(queued(2, at: .seconds(100))))
        let early = queue.event(.expire(now: .seconds(3599)))
        #expect(early.expired.isEmpty && !early.changed)
        let due = queue.event(.expire(now: .seconds(3600)))
        #expect(due.expired == [queued(1, at: .zero)] && due.changed)
        #expect(queue.requests == [queued(2, at: .seconds(100))])
    }

    @Test("cancel one, cancel an unknown id, cancel all")
    func cancel() {
        var queue = RequestQueue()
        for number in 1...3 { _ = queue.event(.enqueue(queued(number))) }
        #expect(queue.event(.cancel(id: queued(2).id)).cancelled == [queued(2)])
        let unknown = queue.event(.cancel(id: UUID()))
        #expect(unknown.cancelled.isEmpty && !unknown.changed)
        #expect(queue.event(.cancelAll).cancelled == [queued(1), queued(3)])
        #expect(queue.requests.isEmpty)
        #expect(!queue.event(.cancelAll).changed)
    }

    @Test("flush: expired ones removed first, the rest returned oldest first and kept until handed on")
    func flush() {
        var queue = RequestQueue(capacity: 10, expiry: .seconds(60))
        _ = queue.event(.enqueue(queued(1, at: .seconds(0))))
        _ = queue.event(.enqueue(queued(2, at: .seconds(30))))
        _ = queue.event(.enqueue(queued(3, at: .seconds(40))))
        let action = queue.event(.flush(now: .seconds(60)))
        #expect(action.expired.map(\.requestType) == ["R1"] && action.changed)
        #expect(action.send.map(\.requestType) == ["R2", "R3"])
        #expect(queue.requests.map(\.requestType) == ["R2", "R3"], "still queued (on disk) while they go")
        #expect(queue.event(.handedOn(id: queued(2).id)).changed)
        #expect(queue.requests.map(\.requestType) == ["R3"])
        #expect(!queue.event(.handedOn(id: queued(2).id)).changed)
        #expect(!queue.event(.flush(now: .seconds(61))).changed, "a flush with nothing expired changes nothing")
    }

    @Test("queuing a request that is queued already (it failed in its flush) keeps its place and first time")
    func requeue() {
        var queue = RequestQueue(capacity: 10, expiry: .seconds(60))
        _ = queue.event(.enqueue(queued(1, at: .seconds(0))))
        _ = queue.event(.enqueue(queued(2, at: .seconds(5))))
        let again = queue.event(.enqueue(queued(1, at: .seconds(50))))
        #expect(!again.changed && again.dropped.isEmpty)
        #expect(queue.requests == [queued(1, at: .seconds(0)), queued(2, at: .seconds(5))])
    }

    @Test("a loaded queue keeps the newest `capacity` requests")
    func loaded() {
        let queue = RequestQueue(capacity: 2, requests: [queued(1), queued(2), queued(3)])
        #expect(queue.requests == [queued(2), queued(3)])
    }
}
