import Foundation
import WatchPairWire

/// The complication budget's executor (docs/Complications.md): it owns the day's ``ComplicationBudget`` as
/// the store last saved it, reads the day from the engine's injected clock, and queues complication transfers
/// as flagged userInfo through the userInfo channel.
///
/// Owned by one ``PairEngine`` and touched only on its actor: every method that reads the engine takes
/// it as its `isolated` parameter, so the count and the outbox it guards stay in one isolation domain.
final class ComplicationChannel {
    /// The day's budget, as the store last saved it.
    private var budget: ComplicationBudget
    /// Where "today" comes from: the engine's wall time on its injected clock.
    private let wallClock: WallClock

    /// A budget resumed from the store's `state`, with days read from `wallClock`.
    init(budget: ComplicationBudget, wallClock: WallClock) {
        self.budget = budget
        self.wallClock = wallClock
    }

    /// See ``PairEngine/transferCurrentComplicationUserInfo(_:)``.
    func transfer(_ payload: PlistDictionary, _ engine: isolated PairEngine) async throws(WCFailure) -> OutboxTransfer {
        let what = "complication userInfo"
        guard engine.role == .phone else {
            let failure = WCFailure(.invalidParameter, "complication transfers go from the phone app to the watch app's complication")
            engine.emit(.payloadRejected, "\(what) refused: \(failure.message)", channel: .userInfo, errorCode: failure.code)
            throw failure
        }
        let encoded = try engine.checkedUserInfo(payload, what)
        guard engine.peerWatchState.complicationEnabled else {
            let failure = WCFailure(
                .genericError, "the watch app's complication is not enabled (isComplicationEnabled is false; wcctl --side watch complication enable)")
            engine.emit(.contentRefused, "\(what) refused: \(failure.message)", channel: .userInfo, errorCode: failure.code)
            throw failure
        }
        let day = ComplicationBudget.day(of: wallClock.now())
        let action = budget.event(.transfer(day: day))
        let flagged = if case .complication = action { true } else { false }
        let transfer: OutboxTransfer
        do {
            transfer = try await engine.enqueueUserInfo(encoded, complication: flagged)
        } catch {
            if flagged {
                _ = budget.event(.refund(day: day))
                await save(engine)
            }
            throw error
        }
        if case .complication(let remaining) = action {
            await save(engine)
            engine.emit(.complicationQueued, "complication userInfo \(transfer.seq) queued, \(remaining) left today",
                        channel: .userInfo, transferId: transfer.transferId, seq: transfer.seq)
        } else {
            engine.emit(.complicationBudgetExhausted,
                        "complication budget used up (\(budget.dailyLimit) today): userInfo \(transfer.seq) goes as plain userInfo",
                        channel: .userInfo, transferId: transfer.transferId, seq: transfer.seq)
        }
        engine.userInfoQueued(transfer)
        return transfer
    }

    /// See ``PairEngine/remainingComplicationUserInfoTransfers()``.
    func remaining(_ engine: isolated PairEngine) -> Int {
        guard engine.role == .phone, engine.peerWatchState.complicationEnabled else { return 0 }
        guard case .remaining(let remaining) = budget.event(.read(day: ComplicationBudget.day(of: wallClock.now()))) else {
            return 0
        }
        return remaining
    }

    /// Persists the budget; a failure is logged and costs at most a count after a restart.
    private func save(_ engine: isolated PairEngine) async {
        do {
            try await engine.store.saveComplicationBudget(budget.state)
        } catch {
            engine.logger.error("saving the complication budget failed", metadata: ["error": "\(error)"])
        }
    }
}
