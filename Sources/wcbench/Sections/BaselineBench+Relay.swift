/// Section 1, the relay floor (issue 15): what four socket crossings through two relaying processes cost
/// on this machine when the processes do no work.
///
/// A message through the daemons goes client → phoned → watchd → phoned → client; here wcbench is the
/// client, relay A stands for phoned and relay B (which echoes) for watchd (``RelayChain``). Each
/// ``RelayLoop`` is measured with the raw ping-pong's payloads, warm-up and count, and reported next to
/// the ping-pong of the same size: `blocking` is the absolute floor of four crossings, `epoll` the floor
/// of any event-loop server (the message section sets the daemons' round trip beside it).
extension BaselineBench {
    /// Round trips of `size` bytes through a new ``RelayChain`` of `loop` relays, recorded as
    /// `baseline.relay.<loop>.<size>B.*` and kept in the context's baselines for the message section.
    func relayFloor(size: Int, loop: RelayLoop) throws(BenchError) {
        let sizeName = Self.sizeName(size)
        context.progress("baseline: zero-work relay (\(loop.rawValue)), \(sizeName)")
        let chain = try RelayChain(context, loop: loop)
        defer { chain.stop() }
        let cpuBefore = try chain.cpuSeconds()
        let summary = try chain.roundTrips(size: size, warmup: context.counts.pingPongWarmup, count: context.counts.pingPong)
        // The warm-up's round trips do the same work, so they count: more round trips per 10 ms CPU tick.
        let cpu = (try chain.cpuSeconds() - cpuBefore) / Double(context.counts.pingPongWarmup + context.counts.pingPong) * 1e6
        context.baselines.relay[loop, default: [:]][size] = summary
        context.baselines.relayCPU[loop, default: [:]][size] = cpu
        let ratios = LatencyRatios(summary, to: context.baselines.pingPong[size], baselineName: "raw ping-pong \(sizeName)")
        context.report.addLatency(
            "baseline", "baseline.relay.\(loop.rawValue).\(size)B", "zero-work relay (\(loop.rawValue)) round trip, \(sizeName)",
            summary, p50Ratio: ratios.p50, p99Ratio: ratios.p99, p999Ratio: ratios.p999)
        context.report.add(
            "baseline", "baseline.relay.\(loop.rawValue).\(size)B.cpuPerRoundTrip",
            "zero-work relay (\(loop.rawValue)), \(sizeName): both relays' CPU per round trip", cpu, "us")
    }
}
