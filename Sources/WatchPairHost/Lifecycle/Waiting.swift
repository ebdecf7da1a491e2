import WatchPairCore

/// Small waiting helpers shared by the daemon's loops. All return early when the task is cancelled.
public enum Waiting {
    /// Returns once any of `signals` fires after the generation given with it.
    public static func any(_ signals: [(AsyncSignal, UInt64)]) async {
        await withTaskGroup(of: Void.self) { group in
            for (signal, seen) in signals {
                group.addTask { await signal.wait(after: seen) }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Returns once any of `signals` fires, or `delay` passes on `clock`; true when the delay passed first.
    @discardableResult
    public static func any(_ signals: [(AsyncSignal, UInt64)], orAfter delay: Duration, on clock: any Clock<Duration>) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            for (signal, seen) in signals {
                group.addTask {
                    await signal.wait(after: seen)
                    return false
                }
            }
            group.addTask {
                (try? await sleep(on: clock, for: delay)) != nil
            }
            let timedOut = await group.next() ?? false
            group.cancelAll()
            return timedOut
        }
    }

    /// Sleeps for `duration` on any clock (opens the existential). Throws when cancelled.
    public static func sleep<C: Clock>(on clock: C, for duration: Duration) async throws where C.Duration == Duration {
        try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
    }
}
