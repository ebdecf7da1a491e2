extension BenchContext {
    /// A new pair with both daemons running (watch first, so the phone finds its peer) and a control
    /// connection to phoned; on failure, whatever started is stopped. The caller stops the pair.
    func startedPair(deadline: UInt64) throws(BenchError) -> (pair: DaemonPair, phone: BenchConnection) {
        let pair = try makePair()
        do throws(BenchError) {
            try pair.start(.watch)
            try pair.start(.phone)
            return (pair, try BenchConnection.connect(pair.controlPath(.phone), retryUntil: deadline))
        } catch {
            pair.stopAll()
            throw error
        }
    }
}
