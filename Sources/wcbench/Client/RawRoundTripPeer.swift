/// A process at the far end of a socket that sends back every byte it reads: the raw ping-pong's echo
/// (``EchoPeer``) or the relay floor's chain of relays (``RelayChain``).
protocol RawRoundTripPeer: AnyObject {
    /// wcbench's end of the socket.
    var descriptor: Int32 { get }
}

extension RawRoundTripPeer {
    /// Round trips of `size` bytes, one at a time: each is one `write` and reads until the payload is
    /// back (no framing). The first `warmup` are not recorded.
    func roundTrips(size: Int, warmup: Int, count: Int) throws(BenchError) -> LatencySummary {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0x61, count: size)
        var recorder = LatencyRecorder()
        let fd = descriptor
        for index in 0..<(warmup + count) {
            let start = Monotonic.now()
            guard UnixSockets.writeExactly(fd, buffer, size), UnixSockets.readExactly(fd, buffer, size) else {
                throw BenchError("the far end of the round trips went away")
            }
            if index >= warmup { recorder.record(nanoseconds: Monotonic.now() - start) }
        }
        return recorder.summary
    }
}
