/// One watch a phone knows (its configuration lists it), as the switch machine sees it.
///
/// A listed watch need not be paired: `unpair` forgets it (its queue is dropped) and `pair` pairs it again
/// with an empty queue. At most one paired watch is active (``WatchSwitchMachine/active``).
public struct PhoneWatch: Sendable, Hashable, Codable {
    /// The watch's name: the `watchd` instance it is (unique on the phone).
    public var name: String
    /// Paired with the phone (its queue is kept); false after `unpair`.
    public var paired: Bool
    /// The watch app is installed on it (`isWatchAppInstalled` while it is active), as last probed.
    public var installed: Bool

    /// A watch named `name`.
    public init(name: String, paired: Bool = true, installed: Bool = true) {
        self.name = name
        self.paired = paired
        self.installed = installed
    }
}
