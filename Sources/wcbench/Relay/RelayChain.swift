import Glibc

/// The relay floor's processes: client → relay A → relay B → relay A → client, the topology of a message
/// through the daemons (client → phoned → watchd → phoned → client) with processes that do no work.
///
/// wcbench is the client. A is `wcbench _relay --loop L` (descriptor 3 toward the client, 4 toward B),
/// B is `wcbench _relay --loop L --echo`; both sockets are socketpairs. Round trips:
/// ``RawRoundTripPeer/roundTrips(size:warmup:count:)``, as for the raw ping-pong.
final class RelayChain: RawRoundTripPeer {
    /// How both relays wait for their sockets.
    let loop: RelayLoop
    /// wcbench's end of the socket to A.
    let descriptor: Int32
    private let relay: ChildProcess
    private let far: ChildProcess

    /// Starts B, then A, each with its ends of new socketpairs.
    init(_ context: BenchContext, loop: RelayLoop) throws(BenchError) {
        let arguments = ["_relay", "--loop", loop.rawValue]
        let log = "\(context.runDirectory)/relay-\(loop.rawValue).log"
        func start(_ relay: String, _ extra: [String], _ keep: [(Int32, Int32)]) throws(BenchError) -> ChildProcess {
            // Each relay's own history file, as each daemon has its own.
            let history = loop.writesEvents ? ["--history", "\(context.runDirectory)/relay-\(loop.rawValue)-\(relay).history"] : []
            return try ChildProcess.spawn(
                context.binaries.wcbench, arguments + extra + history, name: "relay \(relay) (\(loop.rawValue))",
                environment: ChildProcess.environment(), output: log, keep: keep)
        }
        // The children's ends: once started, each child holds its own copies.
        var handed: [Int32] = []
        defer { for fd in handed { close(fd) } }
        let (client, relayUp) = try UnixSockets.pair()
        handed.append(relayUp)
        do throws(BenchError) {
            let (relayDown, farUp) = try UnixSockets.pair()
            handed += [relayDown, farUp]
            let far = try start("B", ["--echo"], [(farUp, 3)])
            do throws(BenchError) {
                relay = try start("A", [], [(relayUp, 3), (relayDown, 4)])
            } catch {
                far.stop()
                throw error
            }
            self.far = far
        } catch {
            close(client)
            throw error
        }
        self.loop = loop
        descriptor = client
    }

    /// User + system CPU both relays have used so far, seconds (10 ms ticks: read it around many round trips).
    func cpuSeconds() throws(BenchError) -> Double {
        try ProcessStats.of(relay.pid).cpuSeconds + ProcessStats.of(far.pid).cpuSeconds
    }

    /// Closes the client's socket (A sees end of stream and exits, closing B's socket, so B exits too)
    /// and reaps both.
    func stop() {
        close(descriptor)
        relay.stop()
        far.stop()
    }
}
