import Dispatch

/// The cost of handing work to another thread and back, the way a `WCSession` hands a callback to its
/// delegate queue and its caller waits: a block sent to a serial `DispatchQueue` signals a semaphore the
/// sending thread sleeps on. Each round trip is two wake-ups of a sleeping thread and nothing else, so
/// half of it is what one hand-over costs on this machine (used by the `wcmodule` section's floor).
extension BaselineBench {
    func handOff() {
        context.progress("baseline: thread hand-off round trip")
        let queue = DispatchQueue(label: "wcbench.hand-off")
        let done = DispatchSemaphore(value: 0)
        let warmup = context.counts.pingPongWarmup
        var recorder = LatencyRecorder()
        for index in 0..<(warmup + context.counts.pingPong) {
            let start = Monotonic.now()
            queue.async { done.signal() }
            done.wait()
            if index >= warmup { recorder.record(nanoseconds: Monotonic.now() - start) }
        }
        let summary = recorder.summary
        context.baselines.handOff = summary
        context.report.addLatency(
            "baseline", "baseline.handOff", "thread hand-off and back (DispatchQueue + semaphore: two wake-ups)", summary)
    }
}
