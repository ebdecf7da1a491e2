import Foundation
import WatchPairCore
import WatchPairWire

/// What the phone remembers of its watches across restarts (`watches.json` in its state directory): the
/// active one and the unpaired ones. The watches themselves are the configuration's (`watches`); a name
/// here that the configuration no longer lists is ignored.
public struct WatchSetRecord: Sendable, Hashable, Codable {
    /// The file's name.
    public static let fileName = "watches.json"

    /// The active watch (nil: none).
    public var active: String?
    /// Watches unpaired with `wcctl unpair` (or `WCSessionPair.unpair`) and not paired again.
    public var unpaired: [String]

    /// A record.
    public init(active: String?, unpaired: [String] = []) {
        self.active = active
        self.unpaired = unpaired
    }

    /// The record of `machine`'s state.
    public init(_ machine: WatchSwitchMachine) {
        self.init(active: machine.active, unpaired: machine.watches.filter { !$0.paired }.map(\.name))
    }

    /// The machine of `watches` as this record left it (none unpaired, the first active, without one).
    public func machine(watches: [PairName]) -> WatchSwitchMachine {
        WatchSwitchMachine(
            watches: watches.map { PhoneWatch(name: $0.rawValue, paired: !unpaired.contains($0.rawValue)) }, active: active)
    }

    /// Reads the record at `path`; none, or one that does not parse, is the default (all paired).
    public static func load(path: String) -> WatchSetRecord {
        guard let data = FileManager.default.contents(atPath: path),
            let record = try? JSONDecoder().decode(WatchSetRecord.self, from: data)
        else { return WatchSetRecord(active: nil) }
        return record
    }

    /// Writes the record at `path` atomically (its directory is created when missing).
    public func save(path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: url, options: .atomic)
    }
}
