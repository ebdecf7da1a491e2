import Glibc
import WatchPairCore

/// Reads a unit's file state the way `systemctl is-enabled` computes it, from the unit's links on disk,
/// without a bus: masked when the unit's name in a configuration directory links to `/dev/null`, enabled
/// when a `<target>.wants/` link to it exists there, disabled when only its unit file exists, and
/// not-found when it has no unit file while this side's own unit has one.
///
/// Why the links and not sd-bus `UnitFileState`: the daemons run with `PrivateNetwork=`, a system-call
/// filter and no bus policy, a private test systemd has no D-Bus broker, and the links are what systemd
/// itself reads; they live in `/etc` and `/run`, so inotify reports every `enable`, `disable`, `mask`
/// and `unmask` at once (``UnixSocketTransport/peerChanges()`` watches them) and they survive reboots.
public struct UnitFileStateProbe: Sendable, Hashable {
    /// The unit, e.g. `watchd.socket`.
    public var unit: String
    /// This side's own unit, e.g. `phoned.socket`, or nil. Its unit file shows that apps are installed as
    /// units here, so that the peer's missing unit file means "not installed" rather than "not under
    /// systemd" (`systemd-socket-activate` passes a listener without any unit file).
    public var ownUnit: String?
    /// The target whose `.wants/` directory holds the enablement link (the unit's `WantedBy=`).
    public var wantedBy: String
    /// Where `systemctl enable` and `mask` write links: `/etc/systemd/system` and `/run/systemd/system`.
    public var configurationDirectories: [String]
    /// Where unit files are installed (`scripts/install.sh`: `/usr/local/lib/systemd/system`).
    public var unitDirectories: [String]

    /// A probe of `unit` at systemd's standard locations.
    public init(
        unit: String,
        ownUnit: String? = nil,
        wantedBy: String = "sockets.target",
        configurationDirectories: [String] = ["/etc/systemd/system", "/run/systemd/system"],
        unitDirectories: [String] = ["/usr/local/lib/systemd/system", "/usr/lib/systemd/system", "/lib/systemd/system"]
    ) {
        self.unit = unit
        self.ownUnit = ownUnit
        self.wantedBy = wantedBy
        self.configurationDirectories = configurationDirectories
        self.unitDirectories = unitDirectories
    }

    /// The paths whose appearance or removal can change the state (for inotify).
    public var watchedPaths: [String] {
        configurationDirectories.flatMap { ["\($0)/\(unit)", "\($0)/\(wantedBy).wants/\(unit)"] }
            + unitDirectories.flatMap { directory in Self.unitFileNames(of: unit).map { "\(directory)/\($0)" } }
    }

    /// The names a unit file of `unit` may have: its own, and for a template's instance
    /// (`watchd@ci-3.socket`) the template's (`watchd@.socket`), which is what systemd loads it from.
    static func unitFileNames(of unit: String) -> [String] {
        guard let at = unit.firstIndex(of: "@"), let dot = unit.lastIndex(of: "."), at < dot else { return [unit] }
        return [unit, String(unit[...at]) + String(unit[dot...])]
    }

    /// The unit's file state now; nil when neither it nor ``ownUnit`` has a unit file (not under systemd's
    /// units: nothing can be said).
    public func state() -> UnitFileState? {
        for directory in configurationDirectories where Self.linksToDevNull("\(directory)/\(unit)") {
            return .masked
        }
        for directory in configurationDirectories where Self.exists("\(directory)/\(wantedBy).wants/\(unit)") {
            return .enabled
        }
        if hasUnitFile(unit) { return .disabled }
        return ownUnit.map(hasUnitFile) == true ? .notFound : nil
    }

    /// A unit file (or a link to one) of `name`, or of its template, is in a configuration or unit directory.
    private func hasUnitFile(_ name: String) -> Bool {
        let names = Self.unitFileNames(of: name)
        return (configurationDirectories + unitDirectories).contains { directory in
            names.contains { Self.exists("\(directory)/\($0)") }
        }
    }

    /// The entry exists (a link counts even when its target does not).
    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// `path` is a symbolic link to `/dev/null` (how `systemctl mask` masks).
    private static func linksToDevNull(_ path: String) -> Bool {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return false }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) == "/dev/null"
    }
}
