import WatchPairWire

/// Whether this side needs a link to its peer, and for what: what ``LinkDriver/drive(_:)`` decides on,
/// from the engine's content, the inbox room it owes the peer and the peer's presence as last probed.
extension LinkDriver {
    /// Whether the peer has something waiting from this side, is owed a link for presence or room, or
    /// has content of its own to deliver here.
    func needsLink(_ engine: isolated PairEngine) -> Bool {
        linkReason(engine) != nil
    }

    /// Why this side needs a link now (``LinkPolicy/linkReason(contentForPeer:deliveryLink:owesRoom:presenceLink:)``),
    /// or nil.
    func linkReason(_ engine: isolated PairEngine) -> LinkPolicy.LinkReason? {
        // Nothing links to or from an app that is not installed; its content waits for a reinstall.
        guard engine.installation.installed, engine.peerPresence.watchState.installed else { return nil }
        return LinkPolicy.linkReason(
            contentForPeer: engine.hasContentForPeer, deliveryLink: wantsDeliveryLink(engine), owesRoom: owesRoomNow(engine),
            presenceLink: wantsPresenceLink(engine))
    }

    /// See ``LinkPolicy/wantsDeliveryLink(presence:refusingForSpace:)``.
    func wantsDeliveryLink(_ engine: isolated PairEngine) -> Bool {
        LinkPolicy.wantsDeliveryLink(presence: presence, refusingForSpace: engine.owesRoom && !hasInboxRoom(engine))
    }

    /// See ``LinkPolicy/wantsPresenceLink(role:launch:presence:)``.
    func wantsPresenceLink(_ engine: isolated PairEngine) -> Bool {
        LinkPolicy.wantsPresenceLink(
            role: engine.role, launch: engine.launch, presence: presence,
            refusingForSpace: engine.owesRoom && !hasInboxRoom(engine))
    }

    /// This side refused the peer for inbox room, the app has since taken at least half of it, and the
    /// peer runs (a stopped peer resumes by itself when it starts; it is never launched for this).
    func owesRoomNow(_ engine: isolated PairEngine) -> Bool {
        engine.owesRoom && presence.running && hasInboxRoom(engine)
    }

    /// The inbox is at most half full: room enough to take the peer's transfers again.
    func hasInboxRoom(_ engine: isolated PairEngine) -> Bool {
        engine.store.queueLengths.inbox <= engine.store.configuration.inboxLimit / 2
    }
}
