import WatchPairWire

/// The receiving app for applicationContext: a `receive` stream that acknowledges each version.
final class ContextApp {
    let connection: BenchConnection
    private let streamId: Int64
    /// The `n` of the newest context seen, and when it arrived.
    private(set) var held = 0
    private(set) var heldAt: UInt64 = 0
    /// Context events seen.
    private(set) var eventsSeen = 0
    private var acksInFlight = 0

    init(_ path: String, deadline: UInt64) throws(BenchError) {
        connection = try BenchConnection.connect(path, retryUntil: deadline)
        streamId = try connection.follow(channels: ["applicationContext"], deadline: deadline)
    }

    /// Reads what arrived; acknowledges the newest version (one ack in flight at most: later versions
    /// supersede earlier ones).
    func process() throws(BenchError) {
        try connection.fill()
        let now = Monotonic.now()
        var newestVersion: Int64?
        while let line = try connection.nextLine() {
            if line.event == "applicationContext" {
                guard let n = line.data?["context"]?["n"]?.integerValue, let version = line.data?["version"]?.integerValue else {
                    throw BenchError("an applicationContext event without n/version: \(line.line)")
                }
                eventsSeen += 1
                held = Int(n)
                heldAt = now
                newestVersion = version
            } else if line.event != nil {
                throw BenchError("watchd's receive stream sent '\(line.event ?? "")': \(line.line)")
            } else if line.id != streamId {
                acksInFlight -= 1
                guard line.ok == true else { throw BenchError("context ack failed: \(line.errorDescription)") }
            }
        }
        if connection.closed { throw BenchError("watchd closed the app's control connection") }
        if let newestVersion, acksInFlight < 8 {
            acksInFlight += 1
            try connection.send(connection.request("ack") { $0.set("contextVersion", UInt64(clamping: newestVersion)) })
        }
    }

    /// Reads until the app holds the context numbered `n`.
    func wait(for n: Int, deadline: UInt64) throws(BenchError) {
        while held != n {
            guard try Poller.waitReadable([connection], deadline: deadline) else {
                throw BenchError("the receiving app never got context n=\(n) (holds n=\(held))")
            }
            try process()
        }
    }
}
