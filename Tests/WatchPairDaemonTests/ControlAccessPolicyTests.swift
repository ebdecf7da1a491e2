import Testing
import WatchPairHost
import WatchPairTransport

/// Who may use a control socket: a table over `SO_PEERCRED` credentials and the user database.
@Suite("Control access policy")
struct ControlAccessPolicyTests {
    /// The daemon runs as uid 900; the socket's group is 900 (`watchpair`); uid 1000 is listed in it
    /// (supplementary), uid 1001 is not.
    static let policy = ControlAccessPolicy(ownUID: 900, group: 900) { uid in
        switch uid {
        case 1000: [1000, 900]
        case 1001: [1001, 27]
        default: []
        }
    }

    @Test("admitted or refused", arguments: [
        (PeerCredentials(pid: 1, uid: 0, gid: 0), true),  // root
        (PeerCredentials(pid: 1, uid: 900, gid: 900), true),  // the daemon's own user
        (PeerCredentials(pid: 1, uid: 1000, gid: 1000), true),  // supplementary member (user database)
        (PeerCredentials(pid: 1, uid: 4000, gid: 900), true),  // effective group is the socket's
        (PeerCredentials(pid: 1, uid: 4001, gid: 4001, groups: [27, 900]), true),  // process's supplementary group
        (PeerCredentials(pid: 1, uid: 4002, gid: 4002, groups: [27]), false),
        (PeerCredentials(pid: 1, uid: 1001, gid: 1001), false),  // in other groups only
        (PeerCredentials(pid: 1, uid: 65534, gid: 65534), false),  // nobody
    ])
    func admits(credentials: PeerCredentials, admitted: Bool) {
        #expect(Self.policy.admits(credentials) == admitted, "\(credentials)")
    }

    @Test("a socket in group 0 is not opened to every peer by the zero padding of SO_PEERGROUPS")
    func rootGroup() {
        let policy = ControlAccessPolicy(ownUID: 900, group: 0) { _ in [] }
        #expect(!policy.admits(PeerCredentials(pid: 1, uid: 4000, gid: 4000, groups: [0])))
    }

    @Test("the refusal names the uid, the daemon's user and the group")
    func refusalLine() {
        let line = Self.policy.refusal(PeerCredentials(pid: 7, uid: 1001, gid: 1001))
        #expect(line.hasPrefix("permission denied: uid 1001 is not root, the daemon's user (uid 900) or a member of group "))
        #expect(line.hasSuffix("(gid 900)"))
    }

    @Test("the user database: root is in group 0, an unknown uid in none")
    func userDatabase() {
        #expect(UserGroups.of(0).contains(0))
        #expect(UserGroups.of(4_000_000_000).isEmpty)
    }
}
