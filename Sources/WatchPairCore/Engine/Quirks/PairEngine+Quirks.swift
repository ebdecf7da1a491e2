import Foundation
import WatchPairQuirks
import WatchPairWire

/// The quirks of real devices on this side (docs/Quirks.md): set and cleared by the host (`wcctl quirk`,
/// configuration, the test kit), asked at the place each behaviour lives. Callers check
/// `quirks.isEmpty` first, so with nothing set none of this runs.
extension PairEngine {
    /// Turns `quirk` on with `setting` (replacing an earlier setting, restarting its draws and count).
    public func setQuirk(_ quirk: Quirk, _ setting: QuirkSetting) {
        // Reachability changes are followed only while a quirk is set: start from what the link says.
        if quirks.isEmpty { quirks.realReachable = linkReachable }
        _ = quirks.machine.event(.set(quirk, setting))
        logger.notice("quirk set", metadata: ["quirk": "\(quirk.rawValue)", "setting": "\(setting)"])
        updateReachability()
    }

    /// Turns `quirk` off, or every quirk (nil); what it held back is released at once.
    public func clearQuirk(_ quirk: Quirk?) {
        _ = quirks.machine.event(.clear(quirk))
        func cleared(_ one: Quirk) -> Bool { quirk == nil || quirk == one }
        for item in quirks.take(quirk) { release(item) }
        if cleared(.asymmetricReachability) { quirks.reachabilityHidden = false }
        if cleared(.contextReplay), quirks.replayContext {
            quirks.replayContext = false
            appChanges.fire(.context)
        }
        if cleared(.stuckUserInfo), quirks.stuckFrom != nil {
            quirks.stuckFrom = nil
            contentSignal.fire()
        }
        logger.notice("quirk cleared", metadata: ["quirk": "\(quirk?.rawValue ?? "all")"])
        updateReachability()
    }

    /// Every quirk set, in catalog order, with its opportunities and injections (`wcctl quirk list`).
    public var quirkStatuses: [QuirkMachine.Status] { quirks.machine.statuses }

    /// Asks whether `quirk` fires at this opportunity; when it does, reports `quirkInjected` (what was done,
    /// the message or transfer hit) and returns the injection.
    func injected(
        _ quirk: Quirk, channel: DiagnosticEvent.Channel? = nil, transferId: UUID? = nil, seq: UInt64? = nil,
        _ what: (QuirkMachine.Injection) -> String
    ) -> QuirkMachine.Injection? {
        guard case .inject(let injection) = quirks.machine.event(.opportunity(quirk)) else { return nil }
        diagnostics.emit(
            DiagnosticEvent(
                .quirkInjected, role: role, "quirk \(quirk.rawValue) #\(injection.ordinal): \(what(injection))",
                channel: channel, transferId: transferId, seq: seq, fields: [EventField(.quirk, .string(quirk.rawValue))]))
        return injection
    }

    /// Releases held items as their times come, until cancelled: a child of `run()`.
    func runQuirkTimers() async {
        await quirks.timers.run(
            isLive: { self.quirks.held[$0] != nil },
            expire: { key, _ in
                if let item = self.quirks.held.removeValue(forKey: key) { self.release(item) }
            })
    }

    /// A held item's time has come (or its quirk was cleared).
    private func release(_ item: EngineQuirks.Held) {
        switch item {
        case .reply(let id, let body):
            // After its call ended it is dropped and reported (`messageAnswerDropped`), as a peer's late answer is.
            messages.event(id, .answered(.success(body)), self)
        case .userInfo(let deliveryId):
            quirks.heldUserInfo.remove(deliveryId)
            appChanges.fire(.userInfo)
        case .context(let version):
            if quirks.heldContext == version { quirks.heldContext = nil }
            appChanges.fire(.context)
        case .file(let transferId):
            quirks.heldFiles.remove(transferId)
            appChanges.fire(.receivedFiles)
        case .installed:
            quirks.installationHidden = false
            installations.update(self)
        }
    }

    // MARK: - Activation

    /// At activation, first thing in `run()`, so that the session reads activated only with them in
    /// place: `contextReplay`, and `installedFlapping` (the peer app reads not installed from the first
    /// look on, so the one `watchStateChanged` is its return).
    func quirksAtActivation() {
        if context.receivedVersion > 0,
            injected(.contextReplay, channel: .applicationContext, seq: context.receivedVersion, { _ in
                "the received context is delivered to the app again"
            }) != nil
        {
            quirks.replayContext = true
            appChanges.fire(.context)
        }
        if let injection = injected(.installedFlapping, { "the \(role.peer.daemonName) app reads not installed for \(QuirkSetting.text($0.delay))" }) {
            quirks.installationHidden = true
            quirks.hold(.installed, for: injection.delay)
        }
    }

    // MARK: - Reachability

    /// `isReachable` under the quirks: `phantomReachability` reads true while set, a hidden
    /// (`asymmetricReachability`) reachability false.
    func quirkReachability(_ real: Bool) -> Bool {
        if quirks.machine.isSet(.phantomReachability) { return true }
        return quirks.reachabilityHidden ? false : real
    }

    /// Each turn of the link's reachability to true is `asymmetricReachability`'s opportunity; any
    /// change ends a hidden one.
    func quirkFollowsReachability() {
        let real = linkReachable
        guard real != quirks.realReachable else { return }
        quirks.realReachable = real
        quirks.reachabilityHidden =
            real && injected(.asymmetricReachability, { _ in "the peer is reachable, but this side reads it not reachable until the next change" }) != nil
    }

    // MARK: - Messages

    /// A message this side sends: 7007 at once while reachability is hidden, or when
    /// `phantomReachability` fires; nil to send it.
    func quirkRefusesMessage() -> WCFailure? {
        if quirks.reachabilityHidden {
            return WCFailure(.notReachable, "the peer is not reachable")
        }
        if injected(.phantomReachability, channel: .message, { _ in "the message fails with 7007 while isReachable reads true" }) != nil {
            return WCFailure(.notReachable, "the message did not reach the peer")
        }
        return nil
    }

    /// A reply to message `id` arrived: `lostReply` drops it, `lateReply` holds it past the call's
    /// deadline, `replyAndError` delivers it and then an error. True when a quirk took it.
    func quirkTakesReply(_ id: UInt64, _ body: MessageBody) -> Bool {
        guard let call = messages.pending[id], call.wantsReply else { return false }
        if injected(.lostReply, channel: .message, seq: id, { _ in "the reply to message \(id) is lost: 7012 at the timeout" }) != nil {
            return true
        }
        if let injection = injected(.lateReply, channel: .message, seq: id, { "the reply to message \(id) is held \(QuirkSetting.text($0.delay)) past the timeout" }) {
            quirks.hold(.reply(id: id, body: body), for: call.timeout + injection.delay)
            return true
        }
        if injected(.replyAndError, channel: .message, seq: id, { _ in "message \(id) gets its reply and then 7012" }) != nil {
            messages.answerThenFail(id, body, self)
            return true
        }
        return false
    }

    // MARK: - userInfo and context

    /// A userInfo this side transferred: it releases every stuck one, and may stick itself (`stuckUserInfo`).
    func quirkOnTransfer(_ transfer: OutboxTransfer) {
        quirks.stuckFrom = nil
        if injected(.stuckUserInfo, channel: .userInfo, transferId: transfer.transferId, seq: transfer.seq, { _ in
            "userInfo \(transfer.seq) stays outstanding until the next transfer"
        }) != nil {
            quirks.stuckFrom = transfer.seq
        }
    }

    /// userInfo received for the app: each may be held back (`delayedDelivery`).
    func quirkOnReceived(_ transfers: [InboxTransfer]) {
        for transfer in transfers where transfer.queue == .app {
            guard let injection = injected(.delayedDelivery, channel: .userInfo, transferId: transfer.transferId, seq: transfer.seq, {
                "userInfo \(transfer.seq) reaches the app after \(QuirkSetting.text($0.delay))"
            }) else { continue }
            quirks.heldUserInfo.insert(transfer.deliveryId)
            quirks.hold(.userInfo(deliveryId: transfer.deliveryId), for: injection.delay)
        }
    }

    /// The app's userInfo as the quirks show it: up to the first held back, each maybe twice (`duplicateUserInfo`).
    func quirkView(_ transfers: [InboxTransfer]) -> [InboxTransfer] {
        quirks.visible(transfers).flatMap { transfer in
            injected(.duplicateUserInfo, channel: .userInfo, transferId: transfer.transferId, seq: transfer.seq, { _ in
                "userInfo \(transfer.seq) is delivered to the app twice"
            }) == nil ? [transfer] : [transfer, transfer]
        }
    }

    /// A context version received: it may be held back (`delayedDelivery`).
    func quirkOnReceivedContext(_ version: UInt64) {
        guard let injection = injected(.delayedDelivery, channel: .applicationContext, seq: version, {
            "context version \(version) reaches the app after \(QuirkSetting.text($0.delay))"
        }) else { return }
        quirks.heldContext = version
        quirks.hold(.context(version: version), for: injection.delay)
    }

    /// A file received whole: it may be held back (`delayedDelivery`).
    func quirkOnReceivedFile(_ offer: FileOffer) {
        guard let injection = injected(.delayedDelivery, channel: .file, transferId: offer.transferId, seq: offer.seq, {
            "file \(offer.fileName) reaches the app after \(QuirkSetting.text($0.delay))"
        }) else { return }
        quirks.heldFiles.insert(offer.transferId)
        quirks.hold(.file(transferId: offer.transferId), for: injection.delay)
    }

    /// The pending context under the quirks: none while held back, the received one again while replayed.
    func quirkPendingContext(_ received: StoredContext, delivered: UInt64) -> StoredContext? {
        if let held = quirks.heldContext, received.version <= held { return nil }
        return quirks.replayContext || received.version > delivered ? received : nil
    }
}
