import WatchPairCore
import WatchPairWire

extension InMemoryNetwork {
    /// Sets `role`'s installation record, as its `wcctl uninstall` / `install` would (its transport's
    /// ``InMemoryTransport/publishInstallation(_:)`` does the same). A change is reported to the peer
    /// transport's `peerChanges()`.
    public func setInstallation(_ role: Role, _ installation: AppInstallation) {
        update(role, \.installation, to: installation)
    }

    /// `role`'s installation record.
    public func installation(of role: Role) -> AppInstallation {
        state.withLock { $0.endpoints[role]!.installation }
    }

    /// Sets the enablement of `role`'s socket unit, as `systemctl disable`, `mask`, `enable` would (nil:
    /// not under systemd). A change is reported to the peer transport's `peerChanges()`.
    public func setUnitFileState(_ role: Role, _ unitFileState: UnitFileState?) {
        update(role, \.unitFileState, to: unitFileState)
    }
}
