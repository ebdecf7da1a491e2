import Foundation
import WatchPairWire

extension PairEngine {
    /// Creates a link for a connection this side opened and hands it to `run()` to serve.
    func spawnLink(_ connection: any TransportConnection) throws(WCFailure) -> Link {
        guard let spawner else {
            throw WCFailure(.sessionNotActivated, "the session is not activated")
        }
        let link = makeLink(connection, initiator: role)
        spawner.yield(link)
        return link
    }

    func makeLink(_ connection: any TransportConnection, initiator: Role) -> Link {
        nextLinkId += 1
        let link = Link(id: nextLinkId, connection: connection, initiator: initiator)
        links[link.id] = link
        return link
    }

    /// Serves a connection the peer opened.
    func runAccepted(_ connection: any TransportConnection) async {
        await runLink(makeLink(connection, initiator: role.peer))
    }

    /// Serves a link from hello to close (``LinkSession``).
    func runLink(_ link: Link) async {
        await LinkSession(link).run(self)
    }

    /// Which of two established links carries new traffic. Both sides choose alike: the one the phone
    /// opened, else the newer. The other stays open and still serves whatever arrives on it, so a message
    /// in flight on it is answered; nothing is cut off by a race between two connects.
    func preferred(_ candidate: Link, over existing: Link?) -> Bool {
        LinkPolicy.prefers(
            LinkPolicy.Candidate(initiator: candidate.initiator, id: candidate.id),
            over: existing.map { LinkPolicy.Candidate(initiator: $0.initiator, id: $0.id) })
    }

    /// Bookkeeping once a link has closed: fail its messages, and let the driver reconnect if needed.
    func linkClosed(_ link: Link) {
        guard links.removeValue(forKey: link.id) != nil else { return }
        link.established.complete(false)
        messages.linkClosed(link, self)
        if current === link {
            // Another established link (two can form when both sides connect at once) takes over.
            current = links.values.filter { $0.peerHello != nil && $0.isOpen }.reduce(nil) { best, candidate in
                preferred(candidate, over: best) ? candidate : best
            }
            if current == nil {
                emit(.peerDisconnected, "link to \(role.peer.daemonName) closed (\(link.closeReason ?? .endOfStream))")
            }
            updateReachability()
        }
        if let reason = link.closeReason { driver.linkClosed(reason, jitter: jitter()) }
        stateSignal.fire()
        contentSignal.fire()
    }
}
