import Testing
@testable import WatchConnection

@Suite("Broadcast")
@MainActor
struct BroadcastTests {
    @Test("values published before anyone subscribes: the first subscriber gets the newest `limit`, in order", arguments: [0, 1, 15, 16, 17, 31, 32, 33, 1_000])
    func backlog(published: Int) async {
        let broadcast = Broadcast<Int>(limit: 16, keepsBacklog: true)
        for value in 0..<published { broadcast.publish(value) }
        let stream = broadcast.subscribe()
        broadcast.finish()
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == Array(max(0, published - 16)..<published))
    }

    @Test("without a backlog, nothing before the first subscriber is kept")
    func noBacklog() async {
        let broadcast = Broadcast<Int>(limit: 16, keepsBacklog: false)
        for value in 0..<40 { broadcast.publish(value) }
        let stream = broadcast.subscribe(initial: 100)
        broadcast.publish(41)
        broadcast.finish()
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == [100, 41])
    }
}
