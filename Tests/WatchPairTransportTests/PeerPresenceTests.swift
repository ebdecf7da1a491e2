import Glibc
import Logging
import Testing
import WatchPairCore
import WatchPairTesting
import WatchPairTransport

@Suite("Peer presence and change notifications")
struct PeerPresenceTests {
    static func transport(link: String, control: String) -> UnixSocketTransport {
        UnixSocketTransport(
            configuration: .init(listener: .none, peerLinkPath: link, peerControlPath: control),
            logger: Logger(label: "test")
        )
    }

    /// How the peer's link socket file looks.
    enum LinkState: CaseIterable, Sendable { case absent, stale, listening }
    /// How the peer's control socket looks.
    enum ControlState: CaseIterable, Sendable { case absent, stale, listening }

    @Test(
        "listening = something listens on the link socket; running = the control socket accepts",
        arguments: LinkState.allCases,
        ControlState.allCases
    )
    func presence(link: LinkState, control: ControlState) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var descriptors: [Int32] = []
        defer { descriptors.forEach { close($0) } }
        switch link {
        case .absent: break
        case .stale: try makeStaleSocketFile(at: dir("peer.sock"))
        case .listening: descriptors.append(try rawSocket(boundAt: dir("peer.sock"), listening: true))
        }
        switch control {
        case .absent: break
        case .stale: try makeStaleSocketFile(at: dir("peer.ctl"))
        case .listening: descriptors.append(try rawSocket(boundAt: dir("peer.ctl"), listening: true))
        }

        let transport = Self.transport(link: dir("peer.sock"), control: dir("peer.ctl"))
        let presence = await transport.peerPresence()
        #expect(presence == PeerPresence(listening: link == .listening, running: control == .listening))
    }

    @Test("a link socket left behind after its listener closed is not installed (device off)")
    func listenerClosedLeavesFileButNotInstalled() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let transport = Self.transport(link: dir("peer.sock"), control: dir("peer.ctl"))
        let link = try rawSocket(boundAt: dir("peer.sock"), listening: true)
        let control = try rawSocket(boundAt: dir("peer.ctl"), listening: true)
        #expect(await transport.peerPresence() == PeerPresence(listening: true, running: true))

        // A killed app: its descriptors close, its socket files stay.
        close(link)
        close(control)
        #expect(fileExists(dir("peer.sock")) && fileExists(dir("peer.ctl")))
        #expect(await transport.peerPresence() == PeerPresence(listening: false, running: false))
    }

    @Test("a datagram socket at the link path is not an installed peer")
    func datagramSocketIsNotInstalled() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let fd = try rawSocket(boundAt: dir("peer.sock"), listening: false, type: SOCK_DGRAM)
        defer { close(fd) }
        let presence = await Self.transport(link: dir("peer.sock"), control: dir("peer.ctl")).peerPresence()
        #expect(presence == PeerPresence(listening: false, running: false))
    }

    @Test("a regular file at the link path is not an installed peer")
    func regularFileIsNotInstalled() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        close(open(dir("peer.sock"), O_CREAT | O_WRONLY, 0o600))
        let presence = await Self.transport(link: dir("peer.sock"), control: dir("peer.ctl")).peerPresence()
        #expect(presence == PeerPresence(listening: false, running: false))
    }

    @Test("asking for presence never connects to the link socket")
    func presenceDoesNotTouchLink() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let link = try rawSocket(boundAt: dir("peer.sock"), listening: true)
        defer { close(link) }
        _ = fcntl(link, F_SETFL, fcntl(link, F_GETFL) | O_NONBLOCK)
        _ = await Self.transport(link: dir("peer.sock"), control: dir("peer.ctl")).peerPresence()
        #expect(accept(link, nil, nil) == -1 && errno == EAGAIN)
    }

    @Test("peerChanges yields when the peer's socket appears and when it is deleted")
    func changesOnCreateAndDelete() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let transport = Self.transport(link: dir("peer.sock"), control: dir("peer.ctl"))
        let changes = transport.peerChanges()

        let link = try rawSocket(boundAt: dir("peer.sock"), listening: true)
        defer { close(link) }
        try await Self.next(changes)
        #expect(await transport.peerPresence().listening)

        // The control socket counts too.
        let control = try rawSocket(boundAt: dir("peer.ctl"), listening: true)
        defer { close(control) }
        try await Self.next(changes)
        #expect(await transport.peerPresence().running)

        unlink(dir("peer.sock"))
        try await Self.next(changes)
        #expect(await transport.peerPresence().listening == false)
    }

    @Test("peerChanges notices a socket in a directory created later")
    func changesWhenDirectoryAppears() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let link = dir("run/watchpair/peer.sock")
        let transport = Self.transport(link: link, control: dir("run/watchpair/peer.ctl"))
        let changes = transport.peerChanges()

        #expect(mkdir(dir("run"), 0o755) == 0)
        #expect(mkdir(dir("run/watchpair"), 0o755) == 0)
        let fd = try rawSocket(boundAt: link, listening: true)
        defer { close(fd) }
        // Signals coalesce; keep taking them until one shows the socket installed.
        try await withTimeout {
            while await transport.peerPresence().listening == false {
                guard await changes.first(where: { _ in true }) != nil else { throw TestFailure("stream ended") }
            }
        }
        // Removing the whole directory is a change too, and re-arms the watch for its return.
        unlink(link)
        rmdir(dir("run/watchpair"))
        try await Self.next(changes)
        #expect(mkdir(dir("run/watchpair"), 0o755) == 0)
        let again = try rawSocket(boundAt: link, listening: true)
        defer { close(again) }
        try await withTimeout {
            while await transport.peerPresence().listening == false {
                guard await changes.first(where: { _ in true }) != nil else { throw TestFailure("stream ended") }
            }
        }
    }

    @Test("peerChanges finishes when the consuming task is cancelled")
    func changesFinishOnCancel() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let transport = Self.transport(link: dir("peer.sock"), control: dir("peer.ctl"))
        let consumer = Task {
            var count = 0
            for await _ in transport.peerChanges() { count += 1 }
            return count
        }
        consumer.cancel()
        let count = try await withTimeout { await consumer.value }
        #expect(count == 0)
    }

    /// Awaits the next change signal, failing after a safety timeout.
    static func next(_ changes: AsyncStream<Void>) async throws {
        let got = try await withTimeout { await changes.first(where: { _ in true }) != nil }
        #expect(got)
    }
}
