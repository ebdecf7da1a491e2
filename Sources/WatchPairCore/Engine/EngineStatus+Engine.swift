import WatchPairWire

extension EngineStatus {
    /// The snapshot of `engine` that ``PairEngine/status()`` gives: its caches, its links and the inbox count.
    init(_ engine: isolated PairEngine) async {
        let inbox = (try? await engine.store.inboxCount()) ?? 0
        self.init(
            role: engine.role,
            activated: engine.spawner != nil,
            launch: engine.launch,
            reachable: engine.isReachable,
            paired: true,
            peerInstalled: engine.peerWatchState.installed,
            peerListening: engine.peerPresence.listening || engine.current != nil,
            installed: engine.installation.installed,
            peerComplicationEnabled: engine.peerWatchState.complicationEnabled,
            complicationEnabled: engine.installation.complicationEnabled,
            complicationTransfersRemaining: engine.remainingComplicationUserInfoTransfers(),
            peerUnitFileState: engine.peerPresence.unitFileState,
            peerRunning: engine.peerPresence.running || engine.current != nil,
            link: engine.linkState.description,
            peerLaunch: engine.current?.peerHello?.launch,
            messagesInFlight: engine.messages.inFlight,
            outstandingTransfers: engine.outstandingCount,
            inboxPending: inbox,
            contextSentVersion: engine.context.sender.sentVersion,
            contextAckedVersion: engine.context.sender.peerAck,
            contextReceivedVersion: engine.context.receivedVersion,
            outstandingFiles: engine.store.files.outstandingFileCount,
            receivingFile: engine.files.isReceiving
        )
        if !engine.quirks.isEmpty, engine.quirks.installationHidden { peerInstallationHidden = true }
    }
}
