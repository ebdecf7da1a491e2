import Foundation
import WatchPairWire

extension PairEngine {
    /// Accepts a complication transfer (`transferCurrentComplicationUserInfo`, DESIGN §11): a userInfo
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
        let what = "complication userInfo"
        guard role == .phone else {
            let failure = WCFailure(.invalidParameter, "complication transfers go from the phone app to the watch app's complication")
            emit(.payloadRejected, "\(what) refused: \(failure.message)", channel: .userInfo, errorCode: failure.code)
            throw failure
        }
        let encoded = try checkedUserInfo(payload, what)
        guard peerWatchState.complicationEnabled else {
            let failure = WCFailure(
                .genericError, "the watch app's complication is not enabled (isComplicationEnabled is false; wcctl --side watch complication enable)")
            emit(.contentRefused, "\(what) refused: \(failure.message)", channel: .userInfo, errorCode: failure.code)
            throw failure
        }
        let day = ComplicationBudget.day(of: wallNow())
        let action = complicationBudget.event(.transfer(day: day))
        let flagged = if case .complication = action { true } else { false }
        let transfer: OutboxTransfer
        do {
            transfer = try await enqueueUserInfo(encoded, complication: flagged)
        } catch {
            if flagged {
                _ = complicationBudget.event(.refund(day: day))
                await saveComplicationBudget()
            }
            throw error
        }
        if case .complication(let remaining) = action {
            await saveComplicationBudget()
            emit(.complicationQueued, "complication userInfo \(transfer.seq) queued, \(remaining) left today",
                 channel: .userInfo, transferId: transfer.transferId, seq: transfer.seq)
        } else {
            emit(.complicationBudgetExhausted,
                 "complication budget used up (\(complicationBudget.dailyLimit) today): userInfo \(transfer.seq) goes as plain userInfo",
                 channel: .userInfo, transferId: transfer.transferId, seq: transfer.seq)
        }
        userInfoQueued(transfer)
        return transfer
    }

    /// `remainingComplicationUserInfoTransfers`: complication transfers left today (UTC, on the injected
    /// clock). 0 on the watch and while the watch app's complication is not enabled, as Apple reports it.
    public func remainingComplicationUserInfoTransfers() -> Int {
        guard role == .phone, peerWatchState.complicationEnabled else { return 0 }
        guard case .remaining(let remaining) = complicationBudget.event(.read(day: ComplicationBudget.day(of: wallNow()))) else {
            return 0
        }
        return remaining
    }

    /// Persists the budget; a failure is logged and costs at most a count after a restart.
    private func saveComplicationBudget() async {
        do {
            try await store.saveComplicationBudget(complicationBudget.state)
        } catch {
            logger.error("saving the complication budget failed", metadata: ["error": "\(error)"])
        }
    }
}
