import WatchPairWire

extension PairEngine {
    /// Accepts a complication transfer (`transferCurrentComplicationUserInfo`, docs/Complications.md): a userInfo
    /// flagged as the current complication info, durable when this returns, delivered to the watch app in
    /// order with the other userInfo transfers.
    ///
    /// Refusals, each with an event and nothing stored: on the watch 7008 (the API is the phone's);
    /// 7009/7008 for the payload, as `transferUserInfo`; 7006 when the watch app is not installed; 7001
    /// when its complication is not enabled (Apple: "fails immediately"; no WCError code names this, and
    /// 7008 would blame the dictionary, which is fine); 7015 when the outbox is full.
    ///
    /// Within the day's budget (``ComplicationBudget``) the transfer is flagged
    /// (`isCurrentComplicationInfo`, a `complicationQueued` event); with the budget used up it still goes,
    /// as a plain userInfo (`complicationBudgetExhausted`), as Apple does.
    public func transferCurrentComplicationUserInfo(_ payload: PlistDictionary) async throws(WCFailure) -> OutboxTransfer {
        try await complications.transfer(payload, self)
    }

    /// `remainingComplicationUserInfoTransfers`: complication transfers left today (UTC, on the injected
    /// clock). 0 on the watch and while the watch app's complication is not enabled, as Apple reports it.
    public func remainingComplicationUserInfoTransfers() -> Int {
        complications.remaining(self)
    }
}
