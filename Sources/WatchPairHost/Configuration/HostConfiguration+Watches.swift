import Foundation
import WatchPairWire

extension HostConfiguration {
    /// The phone's configuration while it is bound to `watch` (docs/Watches.md): every path but the control
    /// socket moves into a directory named after the watch, beside the file it names
    /// (`/run/watchpair/phoned.sock` → `/run/watchpair/W/phoned.sock`, `/var/lib/watchpair/phoned` →
    /// `/var/lib/watchpair/W/phoned`), which are the paths of the named pair `W`: the watch is `watchd@W`
    /// with its own store, and the phone keeps one state directory (its queues) per watch. `pairId` is the
    /// watch's name, as `watchd@W` expects. The control socket stays the phone's.
    public func forWatch(_ watch: PairName) -> HostConfiguration {
        var bound = self
        let current = paths
        bound.paths = Paths(
            link: Self.path(current.link, in: watch), peerLink: Self.path(current.peerLink, in: watch),
            control: current.control, peerControl: Self.path(current.peerControl, in: watch),
            state: current.state + "/watches/" + watch.rawValue, peerState: current.peerState.map { Self.path($0, in: watch) })
        bound.pairId = watch.rawValue
        return bound
    }

    /// Creates the directory of the link socket (`/run/watchpair/W/`) when missing (mode 0755, as the
    /// template units make it), so a phone bound to a watch whose units never ran can still listen for it.
    public func makeLinkDirectory() {
        let directory = (linkPath as NSString).deletingLastPathComponent
        guard !directory.isEmpty else { return }
        try? FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    }

    /// Where the phone keeps which of its watches is active and which are unpaired (``WatchSetRecord``):
    /// `watches.json` in its own state directory.
    public var watchSetPath: String { store.directory + "/" + WatchSetRecord.fileName }

    /// `path` with a directory named `watch` inserted before its last component.
    static func path(_ path: String, in watch: PairName) -> String {
        guard let slash = path.lastIndex(of: "/") else { return watch.rawValue + "/" + path }
        return String(path[..<slash]) + "/" + watch.rawValue + String(path[slash...])
    }
}
