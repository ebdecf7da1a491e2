import GRDB

// The complication budget (`remainingComplicationUserInfoTransfers`): two meta values, so the day's
// count survives restarts like the queues do.
extension PairStore {
    /// The budget as last saved: day 0, none used, when never saved.
    public func complicationBudget() async throws(StoreError) -> ComplicationBudget.State {
        let path = self.path
        return try await database.read("reading the complication budget") { database in
            ComplicationBudget.State(
                day: try StoreSchema.metaInteger(database, StoreSchema.Key.complicationDay, path: path),
                used: Int(try StoreSchema.metaInteger(database, StoreSchema.Key.complicationUsed, path: path)))
        }
    }

    /// Saves the budget. `.relaxed` commit: the enqueue that follows it (group commit, FULL) fsyncs the
    /// WAL and this frame with it; when no enqueue follows (a new day began on a read), losing the write
    /// in a power failure only moves the day again at the next read.
    public func saveComplicationBudget(_ state: ComplicationBudget.State) async throws(StoreError) {
        try await database.write("saving the complication budget", sync: .relaxed) { database in
            try StoreSchema.setMeta(database, StoreSchema.Key.complicationDay, state.day)
            try StoreSchema.setMeta(database, StoreSchema.Key.complicationUsed, Int64(state.used))
        }
    }
}
