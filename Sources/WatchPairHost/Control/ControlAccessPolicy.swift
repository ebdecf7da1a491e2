import Glibc
import WatchPairTransport

/// Who may use a control socket (docs/Systemd.md): root, the daemon's own user, and members of the
/// socket file's group, judged from the kernel's `SO_PEERCRED` of each connection.
///
/// The file mode (0660) already keeps others out at `connect(2)`; this check is the second lock, so a
/// socket whose mode was opened up (or a directory that lets anyone in) does not hand the app's inbox to
/// any local user. A member is a peer whose effective group (`SO_PEERCRED` gid) or one of whose
/// supplementary groups (`SO_PEERGROUPS`) is the socket's group, as for the file mode, or whose user has
/// it as primary or supplementary group in the user database (`getgrouplist`). Under systemd's
/// `PrivateUsers=` only the process's groups work: other users' uids read as `nobody` there, but the
/// service's own group is mapped.
public struct ControlAccessPolicy: Sendable {
    /// The daemon's own user id.
    public var ownUID: UInt32
    /// The socket file's group.
    public var group: UInt32
    /// The primary and supplementary groups of a user id in the user database (empty when unknown).
    public var groupsOfUser: @Sendable (UInt32) -> [UInt32]

    /// A policy for a daemon running as `ownUID` whose control socket belongs to `group`.
    public init(ownUID: UInt32, group: UInt32, groupsOfUser: @escaping @Sendable (UInt32) -> [UInt32] = UserGroups.of) {
        self.ownUID = ownUID
        self.group = group
        self.groupsOfUser = groupsOfUser
    }

    /// Whether the peer with `credentials` may use the socket.
    public func admits(_ credentials: PeerCredentials) -> Bool {
        credentials.uid == 0 || credentials.uid == ownUID || credentials.gid == group
            || (group != 0 && credentials.groups.contains(group)) || groupsOfUser(credentials.uid).contains(group)
    }

    /// The one line a refused client reads before the connection closes.
    public func refusal(_ credentials: PeerCredentials) -> String {
        "permission denied: uid \(credentials.uid) is not root, the daemon's user (uid \(ownUID)) or a member of group \(UserGroups.name(of: group)) (gid \(group))"
    }
}

/// The user database's view of group membership (NSS: `/etc/passwd`, `/etc/group`, systemd users).
public enum UserGroups {
    /// Most groups read for one user; more are ignored (the check then fails closed).
    static let maximumGroups = 256

    /// The primary and supplementary groups of `uid`; empty when the uid has no user entry.
    @Sendable public static func of(_ uid: UInt32) -> [UInt32] {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else {
            return []
        }
        var groups = [gid_t](repeating: 0, count: maximumGroups)
        var count = Int32(maximumGroups)
        guard getgrouplist(name, entry.pw_gid, &groups, &count) >= 0 else { return [entry.pw_gid] }
        return Array(groups.prefix(Int(count)))
    }

    /// The group's name, or its number when it has none.
    static func name(of gid: UInt32) -> String {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getgrgid_r(gid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.gr_name else {
            return String(gid)
        }
        return String(cString: name)
    }
}
