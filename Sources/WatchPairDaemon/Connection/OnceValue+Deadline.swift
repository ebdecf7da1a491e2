import WatchPairHost

extension OnceValue where Value: Sendable {
    /// The value, or `late` when `timeout` passes first on `clock` (`stopping` when the waiting task
    /// is cancelled first): whichever completes the slot first wins, so exactly one outcome.
    func value(within timeout: Duration, on clock: any Clock<Duration>, late: Value, stopping: Value) async -> Value {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                let expired = (try? await Waiting.sleep(on: clock, for: timeout)) != nil
                _ = self.complete(expired ? late : stopping)
            }
            let result = await self.value
            group.cancelAll()
            return result
        }
    }
}
