import WatchPairCore

extension UnixSocketTransport {
    /// Writes this app's record to ``UnixSocketTransportConfiguration/installationPath`` (atomically,
    /// fsynced): the peer reads it there while this app is not running, also after a reboot. Nothing
    /// when no state directory is configured.
    public func publishInstallation(_ installation: AppInstallation) async throws {
        guard let path = self.configuration.installationPath else { return }
        try InstallationRecordFile.write(installation, to: path)
    }

    /// This app's record as last published (installed when there is none).
    public func installation() async -> AppInstallation {
        self.record(at: self.configuration.installationPath)
    }

    /// The peer's record (installed when there is none, or none is configured).
    func peerInstallation() -> AppInstallation {
        self.record(at: self.configuration.peerInstallationPath)
    }

    private func record(at path: String?) -> AppInstallation {
        guard let path else { return AppInstallation() }
        let (record, problem) = InstallationRecordFile.read(path)
        if let problem {
            self.logger.warning("installation record ignored", metadata: ["problem": "\(problem)"])
        }
        return record
    }
}
