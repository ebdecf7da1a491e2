/// Which side of the pair a daemon or session plays.
public enum Role: String, Sendable, Hashable, CaseIterable, Codable {
    /// The iPhone app (`phoned`).
    case phone
    /// The Apple Watch app (`watchd`).
    case watch

    /// The other side of the pair.
    public var peer: Role { self == .phone ? .watch : .phone }

    /// The daemon that plays this role: `phoned` or `watchd`.
    public var daemonName: String { self == .phone ? "phoned" : "watchd" }
}

/// How an app was started, which decides reachability and idle exit (docs/Systemd.md).
public enum LaunchMode: String, Sendable, Hashable, Codable {
    /// Started by the user (`systemctl start`): reachable, stays up until stopped.
    case foreground
    /// Started by the system to deliver content (socket activation): exits by itself when idle.
    case background
}
